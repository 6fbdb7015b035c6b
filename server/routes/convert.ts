/**
 * A movie converted by this server (docs/transcode.md "The route"), a companion extension: a movie
 * pushed or edited with `convert: true` plays as
 *
 * - `GET /api/room/movie/convert/:movieId/index.m3u8`: the complete VOD playlist (HLS, MPEG-TS
 *   segments);
 * - `GET /api/room/movie/convert/:movieId/:n.ts`: segment n, made on demand;
 * - `GET /api/room/movie/convert/:movieId/subtitle/:index.(vtt|ass)`: an embedded text subtitle;
 *
 * each with `?token=…&roomId=…` (a player cannot send headers); the playlist and its segments also
 * with the viewer's choices `&audio=<stream index>` and `&subtitle=<stream index>` (an image
 * subtitle drawn in). Authentication as for every room route; every member who may see the room may
 * watch. One conversion per movie, source and choice, shared by every viewer, on one instance of a
 * cluster.
 *
 * ffmpeg reads the source through `/api/room/movie/proxy/:movieId/input/:inputToken` (routes/proxy.ts),
 * from this machine only.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError, notFound } from '../errors';
import { forwardRequest, wasForwarded } from '../http/forward';
import { requireRoom, tokenOf, type ServerContext } from '../http/guards';
import { queryValue } from '../http/query';
import { ConversionError } from '../transcode/conversion';
import { NOT_MEDIA, type ConvertLimits, type Converter, type InputSource } from '../transcode/converter';
import { INPUT_TOKEN_TTL_SEC, inputPath } from '../transcode/input';
import type { PictureEncoder } from '../transcode/encoders';
import { vodPlaylist } from '../transcode/hls';
import { PlanError, planConversion, playsInBrowsers } from '../transcode/plan';
import { ProbeError } from '../transcode/probe';
import { ConversionLimitError } from '../transcode/registry';
import { isEmbyMovie } from '../vendors/emby-movies';
import { settledWithin } from '../within';
import type { MovieRecord, SiteSettings } from '../db';
import type { MovieBase } from '@/lib/contract/types';
import { isHlsSource, sourceKind } from '@/lib/contract/source-kind';
import { checkConvert, type ProxyPolicy } from '../rules/movie-base';

/** 400 when the site turned conversion off (companion text). */
export const CONVERT_OFF = 'movie conversion is not enabled';
/** 400 when the movie is not one the room converts (companion text). */
export const NOT_CONVERTED = 'movie is not converted';
/** 400 when the machine has no ffmpeg (companion text). */
export const NO_FFMPEG = 'this server cannot convert movies: ffmpeg is not installed';
/** 502 when ffmpeg failed on the source or was too slow (companion text; the details go to the log). */
export const CONVERSION_FAILED = 'the conversion failed';

/** The origin at which this process reaches itself: its own address, or loopback when it listens on all of them. */
export function loopbackOrigin(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo | null;
  if (!address || typeof address === 'string') throw new Error('the server listens on no TCP port');
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * A source's key: `<room> <movie> <digest of what it plays>` (an edit makes a new conversion; the
 * room and movie lead, for Converter.keepOnly).
 */
function sourceKey(movie: MovieRecord): string {
  return `${movie.roomId} ${movie.id} ${inputClaim(movie)}`;
}

/**
 * ffmpeg's input for `movie` of `roomId`: this server's loopback input route (routes/proxy.ts) with
 * a token that names the room, the movie and what it plays, valid INPUT_TOKEN_TTL_SEC; a fresh one
 * each call. The movie's own source is served as an HLS playlist when it is one (`type` m3u8 or a
 * `.m3u8` address), and ffmpeg may then read HLS (../transcode/input.ts).
 */
function inputOf(app: FastifyInstance, context: ServerContext, movie: MovieRecord, roomId: string): InputSource {
  const origin = loopbackOrigin(app);
  const playlist = isHlsSource(movie.base.url || movie.base.vendorInfo?.alist?.path || '', movie.base.type);
  return () => {
    const token = context.tokens.signInput({ roomId, movieId: movie.id, source: inputClaim(movie), url: '', playlist, expiresSec: Math.floor(Date.now() / 1000) + INPUT_TOKEN_TTL_SEC });
    return `${origin}${inputPath(movie.id, token, playlist ? '.m3u8' : '')}`;
  };
}

/** How long (ms) `/current` waits for a source's probe to list its sounds and subtitles. */
const CHOICES_WAIT_MS = 3000;

/** The name a sound or subtitle is shown by: its title, else its language, else what it is. */
function streamName(stream: { title: string; language: string }, fallback: string): string {
  return stream.title || stream.language || fallback;
}

/**
 * What `/current` adds to a converted movie (docs/transcode.md "Choices"): its sounds as
 * `mediaChoices.audioTracks` (a viewer's choice adds `&audio=<index>` to the playlist's URL, as for
 * an Emby movie), its image subtitles as `mediaChoices.burnSubtitles` (`&subtitle=<index>` draws one
 * into the picture) and its embedded text subtitles, served by this route as WebVTT or ASS. Nothing when
 * the server cannot convert, or the probe fails or takes longer than CHOICES_WAIT_MS (the playlist
 * says why).
 */
export async function convertedExtras(app: FastifyInstance, context: ServerContext, movie: MovieRecord, roomId: string, userId: string, query: URLSearchParams): Promise<Pick<MovieBase, 'mediaChoices' | 'subtitles'>> {
  const converter = context.converter;
  if (!converter || !(await converter.available()) || !(await context.store.settings.get()).movie_convert) return {};
  const probing = converter.probe(sourceKey(movie), inputOf(app, context, movie, roomId), userId);
  const probe = await settledWithin(probing.catch(() => null), CHOICES_WAIT_MS, null);
  if (!probe) return {};
  const plan = planConversion(probe);
  const extras: Pick<MovieBase, 'mediaChoices' | 'subtitles'> = {};
  if (plan.audioTracks.length > 1 || plan.imageSubtitles.length > 0) {
    const defaultIndex = plan.audio?.index;
    extras.mediaChoices = {
      audioTracks: plan.audioTracks.length > 1 ? plan.audioTracks.map((track) => ({ index: track.index, name: streamName(track, `${track.codec} ${track.channels}ch`), language: track.language, default: track.index === defaultIndex })) : [],
      maxBitrates: [],
    };
    if (plan.imageSubtitles.length > 0) {
      extras.mediaChoices.burnSubtitles = plan.imageSubtitles.map((subtitle) => ({ index: subtitle.index, name: streamName(subtitle, `#${subtitle.index}`), language: subtitle.language }));
    }
  }
  if (plan.subtitles.length > 0) {
    extras.subtitles = Object.fromEntries(
      plan.subtitles.map((subtitle) => [streamName(subtitle, `#${subtitle.index}`), { url: `/api/room/movie/convert/${movie.id}/subtitle/${subtitle.index}.${subtitle.format}?${query}`, type: subtitle.format }]),
    );
  }
  return extras;
}

/**
 * A room that converts automatically (room setting `auto_convert`, docs/transcode.md "Converting
 * automatically"): when movie `movieId` of `roomId` starts, the server reads what it holds and, when
 * browsers cannot play it as it is (plan.ts `playsInBrowsers`), turns its conversion on (`convert:
 * true`, stored as an edit would). Resolves true when it did; false when the room does not convert
 * automatically, the movie is already converted or may not be (plan.ts's rules, `checkConvert` with
 * `policy`), the server cannot convert, or the source is no media it can read (the player then says
 * why, and offers the conversion by hand). Never rejects.
 */
export async function convertIfUnplayable(app: FastifyInstance, context: ServerContext, roomId: string, movieId: string, userId: string, policy: ProxyPolicy): Promise<boolean> {
  const { converter, store } = context;
  try {
    if (!converter || !(await store.rooms.settings(roomId)).auto_convert || !(await converter.available())) return false;
    const movie = await store.movies.find(roomId, movieId);
    if (!movie || movie.base.convert) return false;
    try {
      checkConvert(movie.base, movie.base.vendorInfo?.vendor ?? '', policy);
    } catch {
      return false;
    }
    const probe = await converter.probe(sourceKey(movie), inputOf(app, context, movie, roomId), userId);
    if (playsInBrowsers(probe, sourceKind(movie.base.url || movie.base.vendorInfo?.alist?.path || '', movie.base.type))) return false;
    // Written only if the movie still plays what was read (an edit in between is another source).
    const now = await store.movies.find(roomId, movieId);
    if (!now || now.base.convert || sourceKey(now) !== sourceKey(movie)) return false;
    await store.movies.replaceBase(roomId, movieId, { ...now.base, convert: true });
    return true;
  } catch (error) {
    if (!(error instanceof ProbeError)) app.log.warn({ err: error, roomId, movieId }, 'could not decide whether to convert a movie');
    return false;
  }
}

export function registerConvertRoutes(app: FastifyInstance, context: ServerContext, converter: Converter | null): void {
  const { store } = context;

  /** The limits the admin set (site settings `convert_*`). */
  const limitsOf = (site: SiteSettings): ConvertLimits => ({
    maxConversions: site.convert_max_conversions,
    maxPerUser: site.convert_max_per_user,
    maxHeight: site.convert_max_height,
    maxMinutes: site.convert_max_minutes,
    maxGigabytes: site.convert_max_gigabytes,
    encoder: site.convert_encoder as PictureEncoder,
  });

  /** A stream index the viewer chose (`audio`, `subtitle`); undefined when none. Throws 400 `id out of range` for one that is no number. */
  const streamParam = (request: FastifyRequest, name: string): number | undefined => {
    const value = queryValue(request.query, name);
    if (!value) return undefined;
    const index = Number(value);
    if (!Number.isSafeInteger(index)) throw badRequest('id out of range');
    return index;
  };

  /**
   * The room, the movie, ffmpeg's input, the viewer's choices (a sound, an image subtitle to burn
   * in) and the limits for a request, or the contract's refusal: 404 `room or movie not found`; 400
   * CONVERT_OFF, NOT_CONVERTED, NO_FFMPEG, `id out of range` (a choice that is no number).
   */
  async function open(request: FastifyRequest) {
    const access = await requireRoom(context, request);
    const movieId = (request.params as { movieId: string }).movieId;
    const movie = await store.movies.find(access.room.id, movieId);
    if (!movie || movie.base.isFolder) throw notFound('room or movie not found');
    const site = await store.settings.get();
    if (!site.movie_convert) throw badRequest(CONVERT_OFF);
    if (!movie.base.convert || movie.base.live || movie.base.rtmpSource || isEmbyMovie(movie.base)) throw badRequest(NOT_CONVERTED);
    if (!converter || !(await converter.available())) throw badRequest(NO_FFMPEG);
    const audio = streamParam(request, 'audio');
    const subtitle = streamParam(request, 'subtitle');
    const input = inputOf(app, context, movie, access.room.id);
    const query = new URLSearchParams({ token: tokenOf(request), roomId: access.room.id });
    if (audio !== undefined) query.set('audio', String(audio));
    if (subtitle !== undefined) query.set('subtitle', String(subtitle));
    return { access, movie, input, audio, subtitle, sourceKey: sourceKey(movie), query, limits: limitsOf(site) };
  }

  /**
   * The shared conversion of an opened request, made now when there is none (the limits are held at
   * the playlist, so a refusal reaches the player before any segment). The room's own conversion (no
   * choice) counts for the movie's creator, who turned it on; a viewer's choice counts for that
   * viewer. Throws 400 with the registry's texts.
   */
  async function conversionOf(opened: Awaited<ReturnType<typeof open>>) {
    const { audio, subtitle } = opened;
    const chargedTo = audio === undefined && subtitle === undefined ? opened.movie.creatorId : opened.access.user.id;
    const choice = { audioIndex: audio, burnSubtitleIndex: subtitle };
    try {
      const prepare = (admit: () => void) => converter!.prepare(opened.sourceKey, opened.input, choice, opened.limits, chargedTo, admit);
      return await converter!.conversion(`${opened.sourceKey} audio=${audio ?? ''} subtitle=${subtitle ?? ''}`, chargedTo, opened.input, prepare, opened.limits);
    } catch (error) {
      throw refusal(error);
    }
  }

  /** The 400 a converter's error is answered with (a limit, not media, live, too long, no such sound); any other error as it is. */
  function refusal(error: unknown): unknown {
    if (error instanceof ConversionLimitError) return badRequest(error.message);
    // A file with neither picture nor sound is no film either.
    if (error instanceof PlanError) return badRequest(error.message === 'no such audio track' || error.message === 'no such image subtitle' ? 'id out of range' : NOT_MEDIA);
    if (error instanceof ProbeError || error instanceof RangeError) return badRequest(error.message);
    return error;
  }

  /**
   * Whether `request` went to the instance that converts its movie (docs/transcode.md "Several
   * instances"): every choice of a movie is converted on one instance, which answers the request
   * (the viewer's credentials go with it). False when this instance answers: it converts the movie,
   * the request was forwarded to it, or the other one cannot be reached.
   */
  async function handedOver(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (wasForwarded(request)) return false;
    const roomId = queryValue(request.query, 'roomId') || String(request.headers['x-room-id'] ?? '');
    const owner = context.hubs.conversionOwner(`${roomId} ${(request.params as { movieId: string }).movieId}`);
    return owner !== null && (await forwardRequest(request, reply, owner)) !== null;
  }

  app.get('/api/room/movie/convert/:movieId/index.m3u8', async (request, reply) => {
    if (await handedOver(request, reply)) return reply;
    const opened = await open(request);
    context.streams.hold(request, reply, opened.access.user.id, opened.access.room.id);
    const conversion = await conversionOf(opened);
    const { movie, query } = opened;
    const { durationSec } = await converter!.probe(opened.sourceKey, opened.input, opened.access.user.id).catch((error: unknown) => {
      throw refusal(error);
    });
    const playlist = vodPlaylist(conversion.starts, durationSec, (n) => `/api/room/movie/convert/${movie.id}/${n}.ts?${query}`);
    return reply.header('cache-control', 'no-cache').type('application/vnd.apple.mpegurl').send(playlist);
  });

  // An embedded text subtitle (convertedExtras), extracted once and shared.
  app.get('/api/room/movie/convert/:movieId/subtitle/:file', async (request, reply) => {
    const match = /^(\d{1,4})\.(vtt|ass)$/.exec((request.params as { file: string }).file);
    if (!match) throw notFound('subtitle not found');
    if (await handedOver(request, reply)) return reply;
    const { movie, input, access, sourceKey: key } = await open(request);
    context.streams.hold(request, reply, access.user.id, access.room.id);
    try {
      const { text, format } = await converter!.subtitle(key, input, Number(match[1]), access.user.id);
      if (format !== match[2]) throw notFound('subtitle not found');
      return reply.header('cache-control', 'private, max-age=3600').type(format === 'vtt' ? 'text/vtt; charset=utf-8' : 'text/x-ssa; charset=utf-8').send(text);
    } catch (error) {
      if (error instanceof RangeError) throw notFound('subtitle not found');
      if (error instanceof ConversionError) {
        request.log.warn({ err: error, movieId: movie.id, roomId: access.room.id }, 'a subtitle could not be extracted');
        throw new HttpError(502, CONVERSION_FAILED);
      }
      throw refusal(error);
    }
  });

  app.get('/api/room/movie/convert/:movieId/:segment', async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^(\d{1,6})\.ts$/.exec((request.params as { segment: string }).segment);
    if (!match) throw notFound('segment not found');
    if (await handedOver(request, reply)) return reply;
    const opened = await open(request);
    context.streams.hold(request, reply, opened.access.user.id, opened.access.room.id);
    const conversion = await conversionOf(opened);
    let file: string;
    try {
      file = await conversion.segment(Number(match[1]));
    } catch (error) {
      if (error instanceof RangeError) throw notFound('segment not found');
      if (error instanceof ConversionError) {
        request.log.warn({ err: error, movieId: opened.movie.id }, 'a conversion failed');
        throw new HttpError(502, CONVERSION_FAILED);
      }
      throw error;
    }
    // Once written, a segment never changes (until the movie does, which changes the key).
    return reply.header('cache-control', 'private, max-age=3600').type('video/mp2t').send(fs.createReadStream(file));
  });
}

/**
 * What `movie` plays, as an input token (routes/proxy.ts) and a source key bind it: a digest of its
 * address, its AList path and its headers, so that an edit makes a new source and ends the old tokens.
 */
export function inputClaim(movie: MovieRecord): string {
  return crypto.createHash('sha256').update(JSON.stringify([movie.base.url, movie.base.vendorInfo?.alist?.path ?? '', movie.base.headers ?? {}])).digest('hex').slice(0, 32);
}
