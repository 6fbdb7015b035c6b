/**
 * The least work that makes a probed file play in a browser (docs/transcode.md "The plan"): each
 * stream copied when browsers decode it in the conversion's HLS (MPEG-TS segments, which hls.js
 * turns into fragmented MP4 for Media Source Extensions), converted only when they do not. That is
 * an H.264 picture in 8-bit 4:2:0 and an AAC or MP3 sound; HEVC, VP9, AV1, MPEG-2, VC-1 … pictures
 * become H.264, and AC-3, E-AC-3, DTS, TrueHD, Opus, FLAC, Vorbis, PCM … sounds become stereo AAC.
 * Text subtitles are offered beside the picture (SubRip, mov_text and WebVTT as WebVTT; ASS and SSA
 * as ASS, for libass); image subtitles (PGS, VobSub, DVB) only burned into the picture, when chosen,
 * which converts the picture.
 */
import type { SourceKind } from '@/lib/contract/source-kind';
import type { MediaProbe, ProbedStream } from './probe';

/**
 * H.264 pixel formats browsers decode: 8-bit 4:2:0 only (High 10, 4:2:2 and 4:4:4 are not). VP9 and
 * AV1 play in browsers but not in MPEG-TS, so they are converted too (a WebM or MP4 of them plays
 * without converting).
 */
const PLAYABLE_H264_PIXELS = new Set(['yuv420p', 'yuvj420p']);
/** Sound codecs hls.js plays from MPEG-TS. */
const PLAYABLE_AUDIO = new Set(['aac', 'mp3']);
/** Text subtitle codecs shown as WebVTT. */
const VTT_SUBTITLES = new Set(['subrip', 'srt', 'mov_text', 'webvtt', 'text']);
/** Text subtitle codecs kept as ASS (their styling drawn by libass in the player). */
const ASS_SUBTITLES = new Set(['ass', 'ssa']);
/** Image subtitle codecs: drawn into the picture when chosen. */
const IMAGE_SUBTITLES = new Set(['hdmv_pgs_subtitle', 'dvd_subtitle', 'dvb_subtitle', 'xsub']);

/** What the viewer chose: an audio stream, an image subtitle to burn in, the tallest picture (px); each optional; and whether the server must convert the picture anyway. */
export interface ConversionChoice {
  audioIndex?: number;
  burnSubtitleIndex?: number;
  maxHeight?: number;
  /** Convert the picture even when browsers decode it (its keyframes, needed to copy it, are not known in time: ./converter.ts). */
  convertPicture?: boolean;
}

/** What happens to one stream: copied as it is, or converted (to H.264 or AAC), and why (the codec, in words). */
export interface StreamAction {
  index: number;
  action: 'copy' | 'convert';
  /** `h264` …, or why it is converted: `hevc`, `h264 yuv420p10le`, `2160 px > 1080`, `burning subtitle 3`, `eac3`. */
  reason: string;
}

/** A text subtitle offered beside the picture. */
export interface PlannedSubtitle {
  index: number;
  format: 'vtt' | 'ass';
  language: string;
  title: string;
}

/** A sound the viewer may choose instead (the player's audio menu). */
export interface AudioTrackOption {
  index: number;
  codec: string;
  channels: number;
  language: string;
  title: string;
  /** Whether this plan plays it. */
  chosen: boolean;
}

/**
 * The plan for one file and choice. `work` is the most expensive thing it does: `remux` (every
 * stream copied: only the container changes), `audio` (the sound converted, the picture copied),
 * `video` (the picture converted).
 */
export interface ConversionPlan {
  video: StreamAction | null;
  audio: StreamAction | null;
  burnSubtitleIndex: number | null;
  subtitles: PlannedSubtitle[];
  audioTracks: AudioTrackOption[];
  imageSubtitles: { index: number; language: string; title: string }[];
  work: 'remux' | 'audio' | 'video';
}

/** Thrown for a file with nothing to play, or a choice the file does not offer (the message says which). */
export class PlanError extends Error {}

function videoAction(stream: ProbedStream, choice: ConversionChoice): StreamAction {
  const convert = (reason: string): StreamAction => ({ index: stream.index, action: 'convert', reason });
  if (choice.burnSubtitleIndex !== undefined) return convert(`burning subtitle ${choice.burnSubtitleIndex}`);
  if (choice.convertPicture) return convert('keyframes not known');
  if (stream.codec !== 'h264') return convert(stream.codec || 'unknown video');
  if (!PLAYABLE_H264_PIXELS.has(stream.pixelFormat)) return convert(`${stream.codec} ${stream.pixelFormat}`);
  if (choice.maxHeight && stream.height > choice.maxHeight) return convert(`${stream.height} px > ${choice.maxHeight}`);
  return { index: stream.index, action: 'copy', reason: stream.codec };
}

/**
 * Plans the conversion of `probe` for `choice`. The picture is the first video stream that is not a
 * cover; the sound is `choice.audioIndex`, else the default audio stream, else the first. Throws
 * PlanError `nothing to play` (no picture and no sound), `no such audio track`, `no such image subtitle`.
 */
export function planConversion(probe: MediaProbe, choice: ConversionChoice = {}): ConversionPlan {
  const video = probe.streams.find((stream) => stream.kind === 'video' && !stream.isCoverArt) ?? null;
  const audios = probe.streams.filter((stream) => stream.kind === 'audio');
  if (!video && audios.length === 0) throw new PlanError('nothing to play');
  const audio = choice.audioIndex !== undefined ? audios.find((stream) => stream.index === choice.audioIndex) : (audios.find((stream) => stream.isDefault) ?? audios[0]);
  if (choice.audioIndex !== undefined && !audio) throw new PlanError('no such audio track');
  const subtitleStreams = probe.streams.filter((stream) => stream.kind === 'subtitle');
  const imageSubtitles = subtitleStreams.filter((stream) => IMAGE_SUBTITLES.has(stream.codec));
  if (choice.burnSubtitleIndex !== undefined && (!video || !imageSubtitles.some((stream) => stream.index === choice.burnSubtitleIndex))) throw new PlanError('no such image subtitle');

  const videoPlan = video ? videoAction(video, choice) : null;
  const audioPlan: StreamAction | null = audio ? { index: audio.index, action: PLAYABLE_AUDIO.has(audio.codec) ? 'copy' : 'convert', reason: audio.codec || 'unknown audio' } : null;
  const work = videoPlan?.action === 'convert' ? 'video' : audioPlan?.action === 'convert' ? 'audio' : 'remux';
  return {
    video: videoPlan,
    audio: audioPlan,
    burnSubtitleIndex: choice.burnSubtitleIndex ?? null,
    subtitles: subtitleStreams
      .filter((stream) => VTT_SUBTITLES.has(stream.codec) || ASS_SUBTITLES.has(stream.codec))
      .map((stream) => ({ index: stream.index, format: ASS_SUBTITLES.has(stream.codec) ? 'ass' : 'vtt', language: stream.language, title: stream.title })),
    audioTracks: audios.map((stream) => ({ index: stream.index, codec: stream.codec, channels: stream.channels, language: stream.language, title: stream.title, chosen: stream === audio })),
    imageSubtitles: imageSubtitles.map((stream) => ({ index: stream.index, language: stream.language, title: stream.title })),
    work,
  };
}

/** H.264 in 8-bit 4:2:0: what every browser decodes of H.264. */
const isPlainH264 = (stream: ProbedStream) => stream.codec === 'h264' && PLAYABLE_H264_PIXELS.has(stream.pixelFormat);

/** Containers browsers play by themselves holding only sound, by ffprobe's `format_name`. */
const SOUND_FILES = new Set(['mp3', 'ogg', 'flac', 'wav', 'aac']);
/** Sounds browsers decode in a file of sound alone. */
const SOUND_FILE_AUDIO = new Set(['mp3', 'aac', 'vorbis', 'opus', 'flac', 'pcm_s16le', 'pcm_s24le', 'pcm_f32le', 'pcm_u8']);

/**
 * Whether every browser plays `probe` as it is, with the engine its URL or `type` picks (`kind`,
 * lib/contract/source-kind.ts): what a room that converts automatically leaves alone (docs/transcode.md
 * "Converting automatically"). The engine reads the container: the element itself plays an MP4 of
 * H.264 (8-bit), VP9 or AV1 with AAC, MP3, Opus or FLAC, a WebM (VP8, VP9 or AV1 with Opus or
 * Vorbis) and files of sound alone; mpegts.js plays FLV and MPEG-TS of H.264 with AAC or MP3. The
 * sound judged is the one the browser plays, the default one. Matroska of other codecs (H.264 in
 * MKV) plays in some browsers and not in others, so it is converted (a remux when the codecs are
 * fine). HLS and DASH are not judged here (true).
 */
export function playsInBrowsers(probe: MediaProbe, kind: SourceKind): boolean {
  if (kind === 'hls' || kind === 'dash') return true;
  const video = probe.streams.find((stream) => stream.kind === 'video' && !stream.isCoverArt);
  const audios = probe.streams.filter((stream) => stream.kind === 'audio');
  const audio = audios.find((stream) => stream.isDefault) ?? audios[0];
  const formats = probe.container.split(',');
  const soundIn = (codecs: readonly string[]) => !audio || codecs.includes(audio.codec);
  if (kind === 'flv' || kind === 'mpegts') return (!video || isPlainH264(video)) && soundIn(['aac', 'mp3']);
  if (formats.includes('mp4')) return (!video || isPlainH264(video) || video.codec === 'vp9' || video.codec === 'av1') && soundIn(['aac', 'mp3', 'opus', 'flac']);
  if (formats.includes('webm')) return (!video || ['vp8', 'vp9', 'av1'].includes(video.codec)) && soundIn(['opus', 'vorbis']) && Boolean(video || audio);
  if (formats.some((format) => SOUND_FILES.has(format))) return !video && Boolean(audio) && SOUND_FILE_AUDIO.has(audio.codec);
  return false;
}
