/** Outcome of `pollUntil`: whether `done` held, the last value read, and how long it took (ms). */
export interface PollResult<T> {
  ok: boolean;
  last: T;
  elapsedMs: number;
}

/**
 * Reads `read()` back to back (with `intervalMs` between reads) until `done(value)` holds or
 * `timeoutMs` has passed since `startMs`. Unlike expect.poll it hands back the last value, so a
 * failure message can say what the viewer actually saw.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs, intervalMs = 25, startMs = Date.now() }: { timeoutMs: number; intervalMs?: number; startMs?: number },
): Promise<PollResult<T>> {
  for (;;) {
    const last = await read();
    const elapsedMs = Date.now() - startMs;
    if (done(last)) return { ok: true, last, elapsedMs };
    if (elapsedMs >= timeoutMs) return { ok: false, last, elapsedMs };
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
