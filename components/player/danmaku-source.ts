/**
 * Danmaku (flying comments) settings and density: the viewer's overlay settings and the limits of
 * how many comments fly. A movie's danmaku file is read by ./danmaku-file.ts. Pure functions, tested
 * in danmaku-source.test.ts.
 */

/** How many comments may fly: `low` ≈ 1 a second, `normal` ≈ 4, `high` = all. */
export type DanmakuDensity = 'low' | 'normal' | 'high';

/** The viewer's overlay settings (kept in localStorage `danmaku`). `opacity` is 0.2–1. */
export interface DanmakuSettings {
  enabled: boolean;
  opacity: number;
  density: DanmakuDensity;
}

/**
 * Defaults: on at 80 % opacity, normal density; off when the system asks for reduced motion (the
 * viewer may still turn it on).
 */
export function defaultDanmakuSettings(reducedMotion: boolean): DanmakuSettings {
  return { enabled: !reducedMotion, opacity: 0.8, density: 'normal' };
}

/** Stored settings checked field by field; anything missing or malformed takes the default. */
export function danmakuSettingsOf(stored: unknown, reducedMotion: boolean): DanmakuSettings {
  const defaults = defaultDanmakuSettings(reducedMotion);
  if (typeof stored !== 'object' || stored === null) return defaults;
  const value = stored as Partial<Record<keyof DanmakuSettings, unknown>>;
  return {
    enabled: typeof value.enabled === 'boolean' ? value.enabled : defaults.enabled,
    opacity: typeof value.opacity === 'number' && Number.isFinite(value.opacity) ? Math.min(1, Math.max(0.2, value.opacity)) : defaults.opacity,
    density: value.density === 'low' || value.density === 'normal' || value.density === 'high' ? value.density : defaults.density,
  };
}

/** Of a movie's comments, those kept at a density: every 4th (low), every 2nd (normal), all (high). */
export function thinComments<T>(comments: T[], density: DanmakuDensity): T[] {
  const step = density === 'low' ? 4 : density === 'normal' ? 2 : 1;
  return step === 1 ? comments : comments.filter((_, index) => index % step === 0);
}

/** Live comments allowed per second, and the burst, at each density (Infinity = no limit). */
const LIVE_RATES: Record<DanmakuDensity, { perSecond: number; burst: number }> = {
  low: { perSecond: 1, burst: 2 },
  normal: { perSecond: 4, burst: 6 },
  high: { perSecond: Infinity, burst: Infinity },
};

/**
 * A token bucket for live comments (chat lines, `streamDanmu` events): `take(nowMs)` is true when
 * one more may fly now; the rest are dropped from the overlay (they stay in the chat).
 */
export function liveLimiter(density: DanmakuDensity): { take(nowMs: number): boolean } {
  const { perSecond, burst } = LIVE_RATES[density];
  let tokens = burst;
  let lastMs = -Infinity;
  return {
    take(nowMs: number) {
      if (perSecond === Infinity) return true;
      tokens = Math.min(burst, tokens + (lastMs === -Infinity ? 0 : ((nowMs - lastMs) / 1000) * perSecond));
      lastMs = nowMs;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
