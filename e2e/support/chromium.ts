/**
 * How every browser of the tests, the size check and the sync benchmark is launched: Debian's
 * Chromium (browsers cannot be downloaded on this machine), with the flags that keep it off the
 * network. The machine has no network but loopback: without these, Chromium keeps trying to reach
 * Google's services in the background; QUIC is off so media goes over plain HTTP as in production.
 * Voice chat gets Chromium's fake microphone and camera (a tone and a test pattern), granted without
 * a prompt.
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
