/**
 * The lifecycle of a process a test starts (the server, Redis, nginx): whether it has exited, a
 * promise of its exit, and a stop that sends SIGTERM and, after 5 s, SIGKILL.
 */
import type { ChildProcess } from 'node:child_process';

export interface Watched {
  /** Whether the process has exited (or could not start). */
  exited(): boolean;
  /** Resolves when it has. */
  exit: Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs` (5000); resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Watches `child`; `onSpawnError` hears why it could not start (e.g. the program is missing). */
export function watchChild(child: ChildProcess, onSpawnError: (error: Error) => void = () => undefined): Watched {
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.on('exit', () => {
      exited = true;
      resolve();
    });
    child.on('error', (error) => {
      onSpawnError(error);
      exited = true;
      resolve();
    });
  });
  return {
    exited: () => exited,
    exit,
    async stop(graceMs = 5000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}
