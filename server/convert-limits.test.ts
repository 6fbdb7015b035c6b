/** @jest-environment node */
/**
 * What conversions may cost (docs/transcode.md "Limits"), against real server processes and Debian's
 * ffmpeg: probes bounded per user before ffprobe is spawned (one user with many converted movies on
 * a slow source), and no ffmpeg outliving its server, even one killed with SIGKILL while its
 * conversion was paused by the throttle, nor one a dead server left in its folder.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRoom, get, launch, post, signUpUser, tempDir, until, type TestServer } from './test-support/harness';

jest.setTimeout(90_000);

const SOURCE_HOST = '127.0.0.2';

let film = '';
let source: http.Server;
let sourceUrl = '';
/** Requests the source is answering now, and the most it answered at once. */
let inFlight = 0;
let mostInFlight = 0;

beforeAll(async () => {
  // Five minutes of a tiny H.264 picture with AC-3 sound: made in a few seconds, long enough that
  // a conversion of it is paused by the throttle (15 segments ahead of the viewer).
  film = path.join(tempDir('convert-limits-'), 'long.mkv');
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=gray:size=64x36:rate=10:duration=300', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000:duration=300', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '20', '-c:a', 'ac3', '-b:a', '32k', film]);
  const body = fs.readFileSync(film);
  source = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://source');
    const answer = () => {
      const range = /bytes=(\d+)-(\d+)?/.exec(request.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range?.[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      response.writeHead(range ? 206 : 200, { 'Content-Type': 'video/x-matroska', 'Content-Length': end - start + 1, ...(range ? { 'Content-Range': `bytes ${start}-${end}/${body.length}` } : {}) });
      response.end(body.subarray(start, end + 1));
    };
    if (!url.pathname.startsWith('/slow/')) return answer();
    // A slow host: two seconds before it answers.
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    setTimeout(() => {
      inFlight -= 1;
      answer();
    }, 2000);
  });
  await new Promise<void>((resolve) => source.listen(0, SOURCE_HOST, resolve));
  sourceUrl = `http://${SOURCE_HOST}:${(source.address() as AddressInfo).port}`;
});

afterAll(async () => {
  source?.closeAllConnections();
  await new Promise((resolve) => source?.close(resolve));
});

/** The ffmpeg and ffprobe processes of this machine whose arguments name `text`: pid → state (R, S, T for stopped, Z). */
function toolsNaming(text: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\u0000');
      if (!/^ff(mpeg|probe)$/.test(path.basename(args[0] ?? '')) || !args.some((arg) => arg.includes(text))) continue;
      const state = /^\d+ \(.*\) (\S)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? '?';
      found.set(Number(pid), state);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Whether process `pid` is gone (a zombie nobody reaped counts as gone: it runs nothing). */
function gone(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('the cost of reading films', () => {
  let server: TestServer;
  afterEach(async () => server?.stop());

  it('reads at most two films at once for one user, refusing the rest before ffprobe starts', async () => {
    server = await launch({ proxyAllowAddresses: [SOURCE_HOST], convertReads: { perServer: 4, perUser: 2 } });
    const owner = await signUpUser(server, 'readsowner');
    const { roomId } = await createRoom(server, owner);
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) {
      const pushed = await post(server, '/api/room/movie/push', { url: `${sourceUrl}/slow/${n}.mkv`, name: `Film ${n}`, convert: true }, { token: owner.token, roomId });
      ids.push(pushed.body.data.id as string);
    }
    mostInFlight = 0;
    const answers = await Promise.all(ids.map((id) => get(server, `/api/room/movie/convert/${id}/index.m3u8`, { token: owner.token, roomId })));
    const refused = answers.filter((answer) => answer.status === 400 && answer.body.error === 'too many of your films are being read at once, try again later');
    // Two read (and are then converted or refused by the conversion limits), four refused at once.
    expect(refused).toHaveLength(4);
    expect(mostInFlight).toBe(2);
  });

  it('leaves no ffmpeg behind a server killed with SIGKILL while its conversion was paused', async () => {
    server = await launch({ proxyAllowAddresses: [SOURCE_HOST] });
    const owner = await signUpUser(server, 'orphanowner');
    const { roomId } = await createRoom(server, owner);
    const pushed = await post(server, '/api/room/movie/push', { url: `${sourceUrl}/long.mkv`, name: 'Long', convert: true }, { token: owner.token, roomId });
    const id = pushed.body.data.id as string;
    const playlist = await get(server, `/api/room/movie/convert/${id}/index.m3u8`, { token: owner.token, roomId });
    const first = playlist.text.split('\n').find((line) => line.startsWith('/api/'))!;
    expect((await fetch(`${server.url}${first}`)).status).toBe(200);
    // The throttle stops ffmpeg (SIGSTOP) once it is 15 segments ahead.
    await until(() => [...toolsNaming(server.dataDir).values()].includes('T'), 'the conversion paused', 30_000);
    const [pid] = [...toolsNaming(server.dataDir).entries()].find(([, state]) => state === 'T')!;
    await server.kill();
    await until(() => gone(pid), 'the paused ffmpeg gone with its server', 5000);
  });

  it('kills, at start, an ffmpeg a dead server left running in its conversion folder', async () => {
    const dataDir = tempDir('orphans-');
    const folder = path.join(dataDir, 'conversions', '999999999', 'film');
    fs.mkdirSync(folder, { recursive: true });
    // What a server on a machine without setpriv leaves: its conversion, stopped, writing in its folder.
    const orphan = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'color=size=64x36:rate=5', '-f', 'segment', path.join(folder, 'seg%d.ts')], { stdio: 'ignore' });
    const exited = new Promise((resolve) => orphan.on('exit', resolve));
    await until(() => toolsNaming(folder).has(orphan.pid!), 'the orphan running');
    orphan.kill('SIGSTOP');
    server = await launch({ dataDir, proxyAllowAddresses: [SOURCE_HOST] });
    await exited;
    expect(fs.existsSync(path.join(dataDir, 'conversions', '999999999'))).toBe(false);
  });
});
