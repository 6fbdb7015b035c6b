import { StruggleGuard } from './struggle';
import { STRUGGLE_MS, STRUGGLE_SEEKS, STRUGGLE_WINDOW_MS } from './tuning';

describe('StruggleGuard', () => {
  it(`gives up seeking for ${STRUGGLE_MS / 1000} s after ${STRUGGLE_SEEKS} catch-up seeks within ${STRUGGLE_WINDOW_MS / 1000} s`, () => {
    const guard = new StruggleGuard();
    const results = Array.from({ length: STRUGGLE_SEEKS }, (_, i) => guard.noteSeek(1000 + i * 5000));
    expect(results).toEqual([...Array(STRUGGLE_SEEKS - 1).fill(false), true]);
    const gaveUpAt = 1000 + (STRUGGLE_SEEKS - 1) * 5000;
    expect(guard.active(gaveUpAt + STRUGGLE_MS - 1)).toBe(true);
    expect(guard.active(gaveUpAt + STRUGGLE_MS)).toBe(false);
  });

  it('forgets seeks older than the window, and starts counting afresh after giving up', () => {
    const guard = new StruggleGuard();
    guard.noteSeek(0);
    guard.noteSeek(1000);
    expect(guard.noteSeek(STRUGGLE_WINDOW_MS + 500)).toBe(false); // the first one is out of the window
    expect(guard.active(STRUGGLE_WINDOW_MS + 500)).toBe(false);
    expect(guard.noteSeek(STRUGGLE_WINDOW_MS + 600)).toBe(true);
    expect(guard.noteSeek(STRUGGLE_WINDOW_MS + 700)).toBe(false);
  });
});
