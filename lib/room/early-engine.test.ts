/** The player's wait for the room link's early start bringing the engine (./early-engine.ts). */
import { earlyEngine } from './early-engine';
import type { EarlyStart } from './early-start';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('earlyEngine', () => {
  afterEach(() => delete (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart);

  it("settles at once without an early start, else when the early start's engine has", async () => {
    await expect(earlyEngine()).resolves.toBeUndefined();
    let done!: () => void;
    const engine = new Promise<void>((resolve) => (done = resolve));
    (window as unknown as { __synctvEarlyStart?: EarlyStart }).__synctvEarlyStart = { roomId: 'r1', token: '', startedAtMs: Date.now(), answers: {}, engine };
    let settled = false;
    void earlyEngine().then(() => (settled = true));
    await settle();
    expect(settled).toBe(false);
    done();
    await settle();
    expect(settled).toBe(true);
  });
});
