/**
 * How every browser of the tests, the size check and the sync benchmark is launched: Debian's
 * Chromium (browsers cannot be downloaded on this machine), with the flags that keep it off the
 * network. The machine has no network but loopback: without these, Chromium keeps trying to reach
 * Google's services in the background; QUIC is off so media goes over plain HTTP as in production.
 * Voice chat gets Chromium's fake microphone and camera (a tone and a test pattern), granted without
 * a prompt.
 *
 * `headlessShellLaunchOptions` is the same with Debian's `chromium-headless-shell` (the same
 * Chromium build without its window code; docs/testing.md "End to end"): the `parallel` project
 * runs on it, 4.7 min against 7.0 with the full browser on this machine (2026-12-03). The `solo`
 * project (video in two browsers, phones, autoplay) stays on the full browser, the one people use:
 * in the shell a tap on a phone's video did not show the controls (e2e/phone.spec.ts), 3 runs of 3.
 */
import type { LaunchOptions } from '@playwright/test';

export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
  ],
};

/** The same flags on Debian's `chromium-headless-shell` (or CHROMIUM_HEADLESS_SHELL_PATH): the `parallel` project's browser. */
export const headlessShellLaunchOptions: LaunchOptions = {
  ...chromiumLaunchOptions,
  executablePath: process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell',
};
