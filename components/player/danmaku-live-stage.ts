/**
 * The danmaku overlay's live stage (chat lines and `streamDanmu` comments) drawing only while a
 * comment is on screen. The `danmaku` library's stage without a media element runs its drawing loop
 * (one `requestAnimationFrame` callback a frame, so a style, layout and paint pass every frame) from
 * its creation until it is destroyed, comments or not, which kept a playing hall drawing every
 * frame (docs/sync.md "Slow devices"). Here the stage is hidden (loop stopped) until a comment comes,
 * shown for it, and hidden again once the last comment has crossed the screen.
 */

/** The part of a `danmaku` instance (DOM engine, no media element) the live stage drives. */
export interface DanmakuStage {
  emit(comment: { text: string; style?: Partial<CSSStyleDeclaration> }): unknown;
  /** Starts the drawing loop (and keeps drawing comments emitted from then on). */
  show(): unknown;
  /** Stops the drawing loop and removes what is on screen. */
  hide(): unknown;
}

/** Margin (ms) after the last comment's crossing before the loop stops. */
export const LIVE_STAGE_MARGIN_MS = 500;

export interface LiveStage {
  /** Shows `comment` flying across, starting the drawing loop when it was stopped. */
  fly(comment: { text: string; style?: Partial<CSSStyleDeclaration> }): void;
  /** Stops the timer (the caller destroys the danmaku instance itself). */
  dispose(): void;
}

/**
 * Wraps `stage` (a `danmaku` instance created without `media`) so that its loop runs only while
 * comments cross it. `crossingMs()`: how long a comment takes to cross the stage now, in
 * milliseconds (the library's own figure: stage width in px ÷ speed in px/s × 1000). The stage is
 * hidden at once; each `fly` shows it and (re)arms a timer that hides it `crossingMs() +
 * LIVE_STAGE_MARGIN_MS` after the latest comment.
 */
export function liveStage(stage: DanmakuStage, crossingMs: () => number): LiveStage {
  let idle: ReturnType<typeof setTimeout> | undefined;
  stage.hide();
  return {
    fly(comment) {
      stage.show();
      stage.emit(comment);
      clearTimeout(idle);
      idle = setTimeout(() => {
        idle = undefined;
        stage.hide();
      }, crossingMs() + LIVE_STAGE_MARGIN_MS);
    },
    dispose() {
      clearTimeout(idle);
      idle = undefined;
    },
  };
}
