/** The server clock estimate (NTP-style SYNC samples) and the SYNC schedule's message budget. */
import { DEFAULT_SYNC_SCHEDULE, nextSyncDelayMs, ServerClock } from './clock';

/** A SYNC round trip against a server whose clock is `skewMs` ahead, with one-way delays `upMs` / `downMs`. */
function roundTrip(clock: ServerClock, localSendMs: number, skewMs: number, upMs: number, downMs: number): void {
  const serverMs = localSendMs + upMs + skewMs;
  clock.addSample(localSendMs, localSendMs + upMs + downMs, serverMs);
}

describe('ServerClock', () => {
  it('reads the local clock until the first sample, then the server clock', () => {
    let local = 1_000_000;
    const clock = new ServerClock(() => local);
    expect(clock.serverNow()).toBe(1_000_000);
    expect(clock.rttMs).toBeNull();
    roundTrip(clock, local, -5000, 10, 10); // this client's clock runs 5 s fast
    local += 20;
    expect(clock.serverNow()).toBe(1_000_020 - 5000);
    expect(clock.rttMs).toBe(20);
    expect(clock.oneWayMs).toBe(10);
  });

  it('keeps the lowest-round-trip sample: queueing delay does not bias the offset', () => {
    const clock = new ServerClock(() => 0);
    roundTrip(clock, 1000, 300, 5, 80); // reply queued 80 ms: naive offset 337.5
    roundTrip(clock, 2000, 300, 4, 4); // clean
    roundTrip(clock, 3000, 300, 60, 3); // request queued
    expect(clock.offsetMs).toBe(300);
    expect(clock.rttMs).toBe(8);
  });

  it('forgets samples older than the window', () => {
    const clock = new ServerClock(() => 0, 3);
    roundTrip(clock, 0, 100, 1, 1); // best, but will leave the window
    roundTrip(clock, 1000, 200, 10, 10);
    roundTrip(clock, 2000, 200, 10, 10);
    expect(clock.offsetMs).toBe(100);
    roundTrip(clock, 3000, 200, 20, 20);
    expect(clock.offsetMs).toBe(200);
  });

  it('handles a 5 s skew in either direction, with a slow symmetric link', () => {
    for (const skewMs of [5000, -5000]) {
      const clock = new ServerClock(() => 0);
      for (let i = 0; i < 4; i += 1) roundTrip(clock, 1_700_000_000_000 + i * 250, skewMs, 150, 150 + i * 7);
      expect(Math.abs(clock.offsetMs - skewMs)).toBeLessThanOrEqual(1);
    }
  });

  it('reports how much the estimate moved, and ignores impossible samples', () => {
    const clock = new ServerClock(() => 0);
    expect(clock.addSample(0, 10, 5005)).toBe(5000);
    expect(clock.addSample(100, 90, 99_999)).toBe(0); // negative round trip
    expect(clock.addSample(200, 210, 0)).toBe(0); // no server time
    expect(clock.offsetMs).toBe(5000);
  });

  it('starts over when a clock was stepped (an offset change no round trip can explain)', () => {
    const clock = new ServerClock(() => 0);
    roundTrip(clock, 1_700_000_000_000, 0, 1, 1); // a very good sample...
    roundTrip(clock, 1_700_000_001_000, 3000, 20, 20); // ...then the local clock is set back by 3 s
    expect(clock.offsetMs).toBe(3000);
    roundTrip(clock, 1_700_000_002_000, 3000, 5, 5);
    expect(clock.offsetMs).toBe(3000);
    expect(clock.rttMs).toBe(10);
  });

  it('after a reconnect keeps the old estimate until the first new sample replaces the window', () => {
    const clock = new ServerClock(() => 0);
    roundTrip(clock, 0, 100, 1, 1);
    clock.restart();
    expect(clock.offsetMs).toBe(100);
    roundTrip(clock, 1000, 400, 30, 30); // slower than the old best, but the only one of this connection
    expect(clock.offsetMs).toBe(400);
    expect(clock.sampleCount).toBe(1);
  });
});

describe('SYNC schedule', () => {
  it('bursts four SYNCs in the first second after a connect, then refreshes every 12 s ± 10 %', () => {
    const delays = Array.from({ length: 6 }, (_, i) => nextSyncDelayMs(i + 1, DEFAULT_SYNC_SCHEDULE, () => 0.5));
    expect(delays).toEqual([250, 250, 250, 12_000, 12_000, 12_000]);
    expect(nextSyncDelayMs(10, DEFAULT_SYNC_SCHEDULE, () => 0)).toBe(10_800);
    expect(nextSyncDelayMs(10, DEFAULT_SYNC_SCHEDULE, () => 0.999_999)).toBe(13_200);
  });
});
