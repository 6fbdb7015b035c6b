/**
 * Waiting on work for a while only: what a request gives a slow source (a probe, a keyframe list)
 * before it goes on without the answer.
 */

/**
 * What `work` resolves to within `ms` milliseconds, or `fallback` past them. A rejection of `work`
 * within the time rejects; one after it is the caller's to handle (`work` is returned unchanged to it).
 */
export async function settledWithin<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
