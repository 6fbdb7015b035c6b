/**
 * A movie's danmaku file (`base.danmu`, docs/contract.md §7.1: a URL, as the reference client's
 * danmaku plugin loads it): bilibili's XML `<d p="time,mode,size,color,…">text</d>` or a JSON array
 * of `{text, time, color?, mode?}`. Downloaded with the overlay only for a movie that has one. Pure,
 * tested in danmaku-source.test.ts.
 */

/** One comment of a movie's danmaku file: media time (s), text, CSS colour, and where it flies. */
export interface TimedComment {
  time: number;
  text: string;
  color: string;
  mode: 'rtl' | 'ltr' | 'top' | 'bottom';
}

/** bilibili's mode numbers: 1–3 scroll right to left, 4 bottom, 5 top, 6 left to right. */
const BILIBILI_MODES: Record<string, TimedComment['mode']> = { '1': 'rtl', '2': 'rtl', '3': 'rtl', '4': 'bottom', '5': 'top', '6': 'ltr' };
/** Artplayer's mode numbers (JSON files): 0 scroll, 1 top, 2 bottom. */
const JSON_MODES: Record<string, TimedComment['mode']> = { '0': 'rtl', '1': 'top', '2': 'bottom', rtl: 'rtl', ltr: 'ltr', top: 'top', bottom: 'bottom' };

const WHITE = '#ffffff';

/** A colour as bilibili writes it (decimal RGB) or as CSS (`#rgb`, `#rrggbb`); else white. */
function colorOf(value: unknown): string {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    const rgb = Number(value);
    return rgb >= 0 && rgb <= 0xffffff ? `#${rgb.toString(16).padStart(6, '0')}` : WHITE;
  }
  return typeof value === 'string' && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : WHITE;
}

/** The comments of bilibili XML (`<d p="…">text</d>`), in time order; unreadable entries are skipped. */
function fromXml(text: string): TimedComment[] {
  const document = new DOMParser().parseFromString(text, 'text/xml');
  return Array.from(document.getElementsByTagName('d')).flatMap((node) => {
    const [time, mode, , color] = (node.getAttribute('p') ?? '').split(',');
    const seconds = Number(time);
    const content = node.textContent ?? '';
    if (!Number.isFinite(seconds) || seconds < 0 || !content) return [];
    return [{ time: seconds, text: content, color: colorOf(color), mode: BILIBILI_MODES[mode] ?? 'rtl' }];
  });
}

/** The comments of a JSON array of `{text, time, color?, mode?}`; other entries are skipped. */
function fromJson(data: unknown): TimedComment[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { text, time, color, mode } = entry as Record<string, unknown>;
    const seconds = Number(time);
    if (typeof text !== 'string' || !text || !Number.isFinite(seconds) || seconds < 0) return [];
    return [{ time: seconds, text, color: colorOf(color), mode: JSON_MODES[String(mode)] ?? 'rtl' }];
  });
}

/**
 * Parses a danmaku file: JSON when it starts with `[`, else bilibili XML. Sorted by time. Throws
 * nothing: an unreadable file gives `[]`.
 */
export function parseDanmakuFile(text: string): TimedComment[] {
  const trimmed = text.trimStart();
  let comments: TimedComment[] = [];
  if (trimmed.startsWith('[')) {
    try {
      comments = fromJson(JSON.parse(trimmed));
    } catch {
      comments = [];
    }
  } else if (trimmed.startsWith('<')) {
    comments = fromXml(trimmed);
  }
  return comments.sort((a, b) => a.time - b.time);
}
