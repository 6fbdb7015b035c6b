/**
 * A rate change of a playing room takes effect for everyone at one instant (docs/sync.md "Rate
 * changes"): the element keeps the old rate until the statuses with the old and the new rate give
 * the same position, then takes the new one. The sync machine (./machine.ts) times the switch with these.
 */
import { positionAt, type RoomTarget } from './correction';

/**
 * A rate change of a playing room that the element makes at the instant the old and the new status
 * meet (docs/sync.md "Rate changes"): `from` is the status with the old rate, `rate` the new one.
 */
export interface RateSwitch {
  from: RoomTarget;
  rate: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * The server time (ms) at which a playing status with the old rate (`from`) and one with the new rate
 * (`to`) give the same position: where a rate change takes effect. Infinity when the rates are equal.
 */
export function rateSwitchAtMs(from: RoomTarget, to: RoomTarget): number {
  const rateDiff = from.status.playbackRate - to.status.playbackRate;
  if (Math.abs(rateDiff) < 1e-9) return Infinity;
  return to.serverTimeMs + ((to.status.currentTime - positionAt(from, to.serverTimeMs)) * 1000) / rateDiff;
}
