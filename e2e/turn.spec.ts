/**
 * TURN: Debian's coturn started with `deploy/turnserver.conf` (docs/voice.md) and the companion
 * server configured for it. The credentials the server hands a room member
 * (`GET /api/room/webrtc/iceServers`, TURN REST convention) get a relay from that coturn in
 * Chromium; the same username with a password made from another secret is refused (401).
 *
 * Skipped only where coturn is not installed (`.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { startServer } from '../server/app';
import { turnCredentials } from '../server/rules/webrtc';
import { expect, ROOT_PASSWORD, test } from './fixtures';
import { SeedApi, uniqueName } from './support/api';

const TURNSERVER = '/usr/bin/turnserver';

/** A free TCP port on 127.0.0.1 (coturn listens on UDP and TCP on it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts coturn with the deploy config on `port`, with `secret`; resolves once it listens. */
async function startCoturn(port: number, secret: string): Promise<ChildProcess> {
  const config = path.resolve(__dirname, '..', 'deploy', 'turnserver.conf');
  const child = spawn(
    TURNSERVER,
    ['-c', config, '--listening-ip', '127.0.0.1', '--relay-ip', '127.0.0.1', '--listening-port', String(port), '--static-auth-secret', secret, '--realm', 'e2e.test', '--min-port', '49152', '--max-port', '65535', '--log-file', 'stdout', '--simple-log'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`coturn did not start within 10 s:\n${log}`)), 10_000);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      if (/Total (UDP|General) servers|IPv4\. (TCP|UDP) listener opened on : 127\.0\.0\.1:/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`coturn exited with ${code}:\n${log}`));
    });
  });
  return child;
}

/** The candidate types Chromium gathers with only `iceServers` (relay only), and the ICE errors' codes. */
function gatherRelay(page: Page, iceServers: RTCIceServer[]): Promise<{ types: string[]; errors: number[] }> {
  return page.evaluate(async (servers) => {
    const connection = new RTCPeerConnection({ iceServers: servers, iceTransportPolicy: 'relay' });
    const types: string[] = [];
    const errors: number[] = [];
    connection.onicecandidate = (event) => {
      if (event.candidate?.type) types.push(event.candidate.type);
    };
    connection.onicecandidateerror = (event) => errors.push((event as RTCPeerConnectionIceErrorEvent).errorCode);
    connection.createDataChannel('probe');
    await connection.setLocalDescription(await connection.createOffer());
    await new Promise<void>((resolve) => {
      const done = () => connection.iceGatheringState === 'complete' && resolve();
      connection.onicegatheringstatechange = done;
      setTimeout(resolve, 10_000);
      done();
    });
    connection.close();
    return { types, errors };
  }, iceServers);
}

test.skip(!existsSync(TURNSERVER), 'coturn is not installed (apt-get install coturn; .ci/run does)');

test('a stock coturn with deploy/turnserver.conf relays for the credentials the server hands a member, and refuses forged ones', async ({ actors }) => {
  const secret = randomBytes(16).toString('hex');
  const turnPort = await freePort();
  const coturn = await startCoturn(turnPort, secret);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'synctv-e2e-turn-'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    webDir: path.resolve(__dirname, '..', 'out'),
    rootPassword: ROOT_PASSWORD,
    rateLimitScale: 0,
    ice: { stunUrls: [], turnUrls: [`turn:127.0.0.1:${turnPort}`], turnSecret: secret, turnTtlSec: 600 },
  });
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const api = new SeedApi(origin);
    const token = await api.signup(uniqueName('turn'), 'pw-turn-123456');
    const roomId = await api.createRoom(token, uniqueName('turn'));
    const answer = await api.request('GET', '/api/room/webrtc/iceServers', { token, roomId });
    expect(answer.status).toBe(200);
    const { iceServers } = (answer.body as { data: { iceServers: RTCIceServer[] } }).data;
    expect(iceServers).toHaveLength(1);
    expect(iceServers[0]).toMatchObject({ urls: [`turn:127.0.0.1:${turnPort}`] });

    const actor = await actors.user('turn');
    await actor.page.goto(`${origin}/api/public/settings`);
    const served = await gatherRelay(actor.page, iceServers);
    expect(served.types).toContain('relay');

    // The same username signed with another secret: coturn refuses it, and no relay comes.
    const forged = turnCredentials('not-the-secret', 'someone', Date.now(), 600);
    const refused = await gatherRelay(actor.page, [{ urls: iceServers[0].urls, ...forged }]);
    expect(refused.types).not.toContain('relay');
    expect(refused.errors).toContain(401);
  } finally {
    await server.close();
    coturn.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
});
