/**
 * A movie converted by this server (docs/transcode.md "The route"), a companion extension: a movie
 * pushed or edited with `convert: true` plays as
 *
 * - `GET /api/room/movie/convert/:movieId/index.m3u8`: the complete VOD playlist (HLS, MPEG-TS
 *   segments), and
 * - `GET /api/room/movie/convert/:movieId/:n.ts`: segment n, made on demand,
 *
 * each with `?token=…&roomId=…` (a player cannot send headers) and the viewer's choice
 * `&audio=<stream index>`. Authentication as for every room route; every member who may see the
 * room may watch. One conversion per movie, source and choice, shared by every viewer.
 *
 * ffmpeg reads the source through `/api/room/movie/proxy/:movieId/input/:inputToken` (routes/proxy.ts),
 * from this machine only.
 */
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError, notFound } from '../errors';
import { requireRoom, tokenOf, type ServerContext } from '../http/guards';
import { queryValue } from '../http/query';
import { ConversionError } from '../transcode/conversion';
import { type ConvertLimits, type Converter, type PreparedConversion } from '../transcode/converter';
import { vodPlaylist } from '../transcode/hls';
import { PlanError } from '../transcode/plan';
import { ProbeError } from '../transcode/probe';
import { ConversionLimitError } from '../transcode/registry';
import { isEmbyMovie } from '../vendors/emby-movies';
import type { MovieRecord } from '../db';

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

/** What a source key is made of: the movie and what it plays (an edit makes a new conversion). */
function sourceKey(movie: MovieRecord): string {
  return JSON.stringify([movie.id, movie.base.url, movie.base.vendorInfo?.alist?.path ?? '', movie.base.headers ?? {}]);
}

export function registerConvertRoutes(app: FastifyInstance, context: ServerContext, converter: Converter | null): void {
  const { store, tokens } = context;

  /** The limits the admin set (site settings `convert_*`). */
  const limits = async (): Promise<ConvertLimits> => {
    const site = await store.settings.get();
    return { maxConversions: site.convert_max_conversions, maxPerUser: site.convert_max_per_user, maxHeight: site.convert_max_height, maxMinutes: site.convert_max_minutes };
  };

  /**
   * The room, the movie and its prepared conversion for a request, or the contract's refusal: 404
   * `room or movie not found`; 400 CONVERT_OFF, NOT_CONVERTED, NO_FFMPEG, `id out of range` (no such
   * audio track), the converter's texts (not media, live, too long).
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
    const audioParam = queryValue(request.query, 'audio');
    const audio = audioParam ? Number(audioParam) : undefined;
    if (audio !== undefined && !Number.isSafeInteger(audio)) throw badRequest('id out of range');
    const input = `${loopbackOrigin(app)}/api/room/movie/proxy/${movie.id}/input/${await tokens.signProxyTarget({ roomId: access.room.id, movieId: movie.id, url: inputClaim(movie), playlist: false })}`;
    const key = sourceKey(movie);
    const currentLimits = await limits();
    let prepared: PreparedConversion;
    try {
      prepared = await converter.prepare(key, input, audio === undefined ? {} : { audioIndex: audio }, currentLimits);
    } catch (error) {
      if (error instanceof PlanError) throw badRequest(error.message === 'no such audio track' ? 'id out of range' : error.message);
      if (error instanceof ProbeError || error instanceof RangeError) throw badRequest(error.message);
      throw error;
    }
    const query = new URLSearchParams({ token: tokenOf(request), roomId: access.room.id });
    if (audio !== undefined) query.set('audio', String(audio));
    return { access, movie, input, key: `${key}\naudio=${audio ?? ''}`, prepared, query, limits: currentLimits };
  }

  app.get('/api/room/movie/convert/:movieId/index.m3u8', async (request, reply) => {
    const { movie, prepared, query } = await open(request);
    const playlist = vodPlaylist(prepared.starts, prepared.probe.durationSec, (n) => `/api/room/movie/convert/${movie.id}/${n}.ts?${query}`);
    return reply.header('cache-control', 'no-cache').type('application/vnd.apple.mpegurl').send(playlist);
  });

  app.get('/api/room/movie/convert/:movieId/:segment', async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^(\d{1,6})\.ts$/.exec((request.params as { segment: string }).segment);
    if (!match) throw notFound('segment not found');
    const opened = await open(request);
    let file: string;
    try {
      const conversion = converter!.conversion(opened.key, opened.access.user.id, opened.input, opened.prepared, opened.limits);
      file = await conversion.segment(Number(match[1]));
    } catch (error) {
      if (error instanceof ConversionLimitError) throw badRequest(error.message);
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

/** The claim of an input token (routes/proxy.ts): marks it as ffmpeg's, bound to what the movie plays. */
export function inputClaim(movie: MovieRecord): string {
  return `convert-input:${movie.base.url}`;
}
