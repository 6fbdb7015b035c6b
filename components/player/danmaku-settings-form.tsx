'use client';
/** The danmaku overlay's settings (opacity and density, kept on this device); downloaded when first opened. */
import { useT } from '@/lib/i18n';
import type { DanmakuDensity, DanmakuSettings } from './danmaku-source';
import '@/lib/i18n/messages/player';

const DENSITIES: DanmakuDensity[] = ['low', 'normal', 'high'];

/** Opacity and density of the danmaku overlay (kept on this device). */
export default function DanmakuSettingsForm({ settings, onChange }: { settings: DanmakuSettings; onChange: (patch: Partial<DanmakuSettings>) => void }) {
  const t = useT();
  return (
    <div id="danmaku-settings" data-testid="danmaku-settings" className="grid gap-3 rounded-lg bg-zinc-50 p-3 text-sm sm:grid-cols-2 dark:bg-zinc-800/60">
      <label className="flex items-center gap-3">
        <span className="w-20 shrink-0">{t('player.danmaku.opacity')}</span>
        <input
          type="range"
          min={20}
          max={100}
          step={10}
          value={Math.round(settings.opacity * 100)}
          onChange={(event) => onChange({ opacity: Number(event.target.value) / 100 })}
          className="min-w-0 flex-1"
          data-testid="danmaku-opacity"
        />
        <span className="w-10 text-right tabular-nums">{Math.round(settings.opacity * 100)}%</span>
      </label>
      <fieldset className="flex items-center gap-3">
        <legend className="sr-only">{t('player.danmaku.density')}</legend>
        <span aria-hidden className="w-20 shrink-0">
          {t('player.danmaku.density')}
        </span>
        {DENSITIES.map((density) => (
          <label key={density} className="flex items-center gap-1">
            <input type="radio" name="danmaku-density" value={density} checked={settings.density === density} onChange={() => onChange({ density })} />
            {t(`player.danmaku.density.${density}`)}
          </label>
        ))}
      </fieldset>
      {window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? <p className="text-xs text-zinc-600 sm:col-span-2 dark:text-zinc-400">{t('player.danmaku.reducedMotion')}</p> : null}
    </div>
  );
}
