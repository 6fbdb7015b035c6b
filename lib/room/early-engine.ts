/**
 * The player's side of the room link's early start bringing the current movie's engine
 * (./early-start.ts): kept out of early-start.ts, which every screen's start-up loads, since only
 * the player needs it.
 */
import type { EarlyStart } from './early-start';

/**
 * Settles once the room link's early start has run the current movie's engine chunks from their
 * gzip copies (webpack then has them: importing the engine costs no download), has started
 * preloading them, or has given up; at once without an early start. The player awaits it before it
 * imports an engine, so that webpack does not download a chunk that is being unpacked. Never rejects.
 */
export function earlyEngine(): Promise<void> {
  if (typeof window === 'undefined') return Promise.resolve();
  return (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart?.engine ?? Promise.resolve();
}
