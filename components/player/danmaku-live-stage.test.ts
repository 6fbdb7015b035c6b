/**
 * The live danmaku stage draws only while a comment crosses it: the real `danmaku` library (DOM
 * engine) under Jest's fake timers, which stand in for requestAnimationFrame too.
 */
import { LIVE_STAGE_MARGIN_MS, liveStage, type DanmakuStage } from './danmaku-live-stage';

const CROSSING_MS = 4000;

/** A `danmaku` stage in a fresh container, its module loaded after the fake timers so it binds their requestAnimationFrame. */
function realStage(): { stage: DanmakuStage; container: HTMLElement } {
  const container = document.createElement('div');
  // 640 px at 160 px/s: a comment crosses in 4 s (jsdom lays nothing out).
  Object.defineProperty(container, 'offsetWidth', { value: 640 });
  Object.defineProperty(container, 'offsetHeight', { value: 360 });
  document.body.appendChild(container);
  let DanmakuClass!: new (options: { container: HTMLElement; speed: number }) => DanmakuStage;
  jest.isolateModules(() => {
    DanmakuClass = jest.requireActual('danmaku/dist/danmaku.dom.js');
  });
  return { stage: new DanmakuClass({ container, speed: 160 }), container };
}

describe('liveStage', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    document.body.innerHTML = '';
  });

  it('schedules nothing while no comment flies', () => {
    const { stage } = realStage();
    // The library alone keeps a frame scheduled from its creation on.
    expect(jest.getTimerCount()).toBe(1);
    liveStage(stage, () => CROSSING_MS);
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(10_000);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('draws a comment, then stops once it has crossed', () => {
    const { stage, container } = realStage();
    const live = liveStage(stage, () => CROSSING_MS);
    live.fly({ text: 'hello' });
    jest.advanceTimersByTime(100);
    expect(container.textContent).toContain('hello');
    // The library's loop and the idle timer.
    expect(jest.getTimerCount()).toBe(2);
    jest.advanceTimersByTime(CROSSING_MS + LIVE_STAGE_MARGIN_MS);
    expect(jest.getTimerCount()).toBe(0);
    expect(container.textContent).not.toContain('hello');
  });

  it('keeps drawing until the latest comment has crossed, and starts again for the next one', () => {
    const { stage, container } = realStage();
    const live = liveStage(stage, () => CROSSING_MS);
    live.fly({ text: 'first' });
    jest.advanceTimersByTime(3000);
    live.fly({ text: 'second' });
    jest.advanceTimersByTime(CROSSING_MS);
    expect(jest.getTimerCount()).toBe(2);
    jest.advanceTimersByTime(LIVE_STAGE_MARGIN_MS);
    expect(jest.getTimerCount()).toBe(0);
    live.fly({ text: 'third' });
    jest.advanceTimersByTime(50);
    expect(container.textContent).toContain('third');
    live.dispose();
  });
});
