/**
 * Why a source does not play, in terms a viewer can act on: the probe's findings and the engine's
 * failure turned into one problem; and the probe itself against a real HTTP server.
 *
 * @jest-environment node
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeSourceProblem, diagnoseSource, type SourceDiagnosis } from './source-problems';

const reachable = (patch: Partial<SourceDiagnosis> = {}): SourceDiagnosis => ({ reachable: true, reachableWithoutCors: false, status: 206, contentType: 'video/mp4', rangeSupported: true, serverError: '', ...patch });
const down: SourceDiagnosis = { reachable: false, reachableWithoutCors: false, status: 0, contentType: '', rangeSupported: null, serverError: '' };
const context = { url: 'https://cdn.test/a.mp4', engine: 'native' as const, detail: 'x', pageProtocol: 'http:' };

describe('describeSourceProblem', () => {
  it('tells an unreachable server from one that answers without CORS (fatal for hls.js, dash.js, mpegts.js only)', () => {
    expect(describeSourceProblem(down, context).kind).toBe('unreachable');
    const noCors = { ...down, reachableWithoutCors: true };
    expect(describeSourceProblem(noCors, { ...context, engine: 'hls' }).kind).toBe('cors');
    expect(describeSourceProblem(noCors, { ...context, mediaErrorCode: 4 }).kind).toBe('unplayable');
  });

  it('names an HTTP error status, an http URL on an https page, and an answer that is not media', () => {
    expect(describeSourceProblem(reachable({ status: 404 }), context)).toEqual({ kind: 'httpStatus', detail: '404' });
    // One of this server's routes (a conversion, the proxy) refused: its words, not a bare status.
    const refused = reachable({ status: 400, contentType: 'application/json', serverError: 'you are converting too many movies at once' });
    expect(describeSourceProblem(refused, context)).toEqual({ kind: 'serverError', detail: 'you are converting too many movies at once' });
    expect(describeSourceProblem(down, { ...context, url: 'http://cdn.test/a.mp4', pageProtocol: 'https:' }).kind).toBe('mixedContent');
    expect(describeSourceProblem(reachable({ status: 200, contentType: 'text/html' }), { ...context, mediaErrorCode: 4 })).toEqual({ kind: 'notMedia', detail: 'text/html' });
    // A playlist served as text/plain is normal for HLS.
    expect(describeSourceProblem(reachable({ status: 200, contentType: 'text/plain' }), { ...context, engine: 'hls', detail: 'fragParsingError' }).kind).toBe('unknown');
  });

  it('blames the codec when a reachable media file does not decode', () => {
    expect(describeSourceProblem(reachable(), { ...context, mediaErrorCode: 3 }).kind).toBe('codec');
    expect(describeSourceProblem(reachable(), { ...context, mediaErrorCode: 4 }).kind).toBe('codec');
  });
});

describe('diagnoseSource', () => {
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const cors = { 'access-control-allow-origin': '*' };
      if (request.url === '/ranged.mp4') {
        response.writeHead(request.headers.range ? 206 : 200, { ...cors, 'content-type': 'video/mp4', 'content-range': 'bytes 0-0/100', 'accept-ranges': 'bytes' });
        response.end('x');
      } else if (request.url === '/whole.mp4') {
        response.writeHead(200, { ...cors, 'content-type': 'video/mp4' });
        response.end('whole file');
      } else {
        response.writeHead(404, { ...cors, 'content-type': 'text/html; charset=utf-8' });
        response.end('<h1>not found</h1>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finds whether the source honours Range, its status and its content type', async () => {
    expect(await diagnoseSource(`${origin}/ranged.mp4`)).toMatchObject({ reachable: true, status: 206, contentType: 'video/mp4', rangeSupported: true });
    expect(await diagnoseSource(`${origin}/whole.mp4`)).toMatchObject({ reachable: true, status: 200, rangeSupported: false });
    expect(await diagnoseSource(`${origin}/gone`)).toMatchObject({ reachable: true, status: 404, contentType: 'text/html', rangeSupported: null });
  });

  it('reports a refused connection as unreachable, without throwing', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await diagnoseSource(`http://127.0.0.1:${port}/a.mp4`)).toMatchObject({ reachable: false, reachableWithoutCors: false });
  });
});
