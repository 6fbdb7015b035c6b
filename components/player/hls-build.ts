/**
 * Which hls.js build a stream needs. The player starts every HLS movie with hls.js's light build
 * (`hls.js/light`, ~116 KB gzip instead of ~182 KB) and switches to the full build only when a
 * playlist the light instance loaded uses something the light build leaves out (hls.js 1.7 README,
 * "Build tasks"; `__USE_*__` flags in hls.js/src/config.ts):
 *
 * - alternate audio renditions: EXT-X-MEDIA TYPE=AUDIO with a URI (audio muxed into the variants
 *   plays in the light build),
 * - subtitle renditions (TYPE=SUBTITLES) and declared closed captions (TYPE=CLOSED-CAPTIONS),
 * - DRM: EXT-X-KEY / EXT-X-SESSION-KEY whose METHOD needs EME (anything but NONE, AES-128,
 *   AES-256, AES-256-CTR and SAMPLE-AES with KEYFORMAT "identity"),
 * - variable substitution (EXT-X-DEFINE),
 * - interstitials (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial"), which the full build plays,
 * - HEVC or AC-3 declared in a variant's CODECS (the light build cannot demux them from MPEG-2 TS).
 *
 * Content steering is not on the list: the light build includes it.
 *
 * The light parser drops what it cannot use (DRM session keys, EXT-X-DEFINE: `sessionKeys` and
 * `variableList` come back null), so those are read from the playlist text, which hls.js's default
 * XHR loader hands over as `networkDetails`.
 */

/**
 * The parts of hls.js's MANIFEST_LOADED data (or LEVEL_LOADED data: only `networkDetails`) that the
 * decision reads. Every field is optional, so the event data of either build can be passed as is.
 */
export interface HlsPlaylistFacts {
  /** EXT-X-MEDIA TYPE=AUDIO renditions; `url` is "" for audio muxed into the variants. */
  audioTracks?: readonly { url: string }[];
  /** EXT-X-MEDIA TYPE=SUBTITLES renditions. */
  subtitles?: readonly unknown[];
  /** EXT-X-MEDIA TYPE=CLOSED-CAPTIONS renditions. */
  captions?: readonly unknown[];
  /** The variants with the codecs their CODECS attribute declares (undefined when absent). */
  levels?: readonly { audioCodec?: string; videoCodec?: string }[];
  /** EXT-X-SESSION-KEY keys hls.js kept (the light build keeps none that need EME). */
  sessionKeys?: readonly { method: string; keyFormat: string }[] | null;
  /** EXT-X-DEFINE variables (always null from the light build). */
  variableList?: unknown;
  /** What the loader returned with the playlist: an XMLHttpRequest for the default loader. */
  networkDetails?: unknown;
}

/** Encryption methods hls.js decrypts itself, in both builds (hls.js/src/loader/level-key.ts). */
const SEGMENT_METHODS = new Set(['', 'NONE', 'AES-128', 'AES-256', 'AES-256-CTR']);
const INTERSTITIAL_CLASS = 'com.apple.hls.interstitial';
/** One `NAME=value` of an attribute list (RFC 8216 §4.2); a quoted value may hold commas. */
const ATTRIBUTE = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;

/**
 * True when the stream needs hls.js's full build (see the module comment for the list); false for
 * a plain stream, e.g. H.264/AAC variants or a single media playlist. Never throws.
 */
export function needsFullHlsBuild(facts: HlsPlaylistFacts): boolean {
  if (facts.audioTracks?.some((track) => track.url !== '')) return true;
  if (facts.subtitles?.length || facts.captions?.length) return true;
  if (facts.variableList) return true;
  if (facts.sessionKeys?.some((key) => keyNeedsEme(key.method, key.keyFormat))) return true;
  if (facts.levels?.some((level) => isAdvancedTsCodec(level.videoCodec) || isAdvancedTsCodec(level.audioCodec))) return true;
  return textNeedsFullBuild(playlistTextOf(facts.networkDetails));
}

/**
 * The playlist text hls.js's default loader received: `responseText` of the XMLHttpRequest passed
 * as `networkDetails`; "" for anything else (a fetch Response, whose body hls.js already read; null).
 */
export function playlistTextOf(networkDetails: unknown): string {
  if (typeof XMLHttpRequest === 'undefined' || !(networkDetails instanceof XMLHttpRequest)) return '';
  // responseText throws for a binary responseType; playlists are always loaded as text.
  return networkDetails.responseType === '' || networkDetails.responseType === 'text' ? networkDetails.responseText : '';
}

/** True when a key's method can only be decrypted through EME (a DRM key system). */
function keyNeedsEme(method: string, keyFormat: string): boolean {
  const upper = method.toUpperCase();
  if (SEGMENT_METHODS.has(upper)) return false;
  // Clear SAMPLE-AES (MPEG-2 TS) is decrypted by hls.js itself, light build included.
  return !(upper === 'SAMPLE-AES' && keyFormat === 'identity');
}

/** HEVC or AC-3: the codecs the light build leaves out of its MPEG-2 TS demuxer. */
function isAdvancedTsCodec(codec: string | undefined): boolean {
  return Boolean(codec && /^(hvc1|hev1|ac-3)/i.test(codec));
}

/** Scans a playlist's tags for DRM keys, EXT-X-DEFINE and interstitials. */
function textNeedsFullBuild(text: string): boolean {
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (!line.startsWith('#EXT-X-')) continue;
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line : line.slice(0, colon);
    const attributes = colon < 0 ? '' : line.slice(colon + 1);
    switch (tag) {
      case '#EXT-X-DEFINE':
        return true;
      case '#EXT-X-KEY':
      case '#EXT-X-SESSION-KEY': {
        const attrs = attributesOf(attributes);
        if (keyNeedsEme(attrs.get('METHOD') ?? '', attrs.get('KEYFORMAT') ?? 'identity')) return true;
        break;
      }
      case '#EXT-X-DATERANGE':
        if (attributesOf(attributes).get('CLASS') === INTERSTITIAL_CLASS) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

/** An attribute list as NAME → value, quotes removed. */
function attributesOf(list: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const [, name, value] of list.matchAll(ATTRIBUTE)) {
    attrs.set(name, value.startsWith('"') ? value.slice(1, -1) : value);
  }
  return attrs;
}
