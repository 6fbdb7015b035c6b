#!/usr/bin/env node
/**
 * Checks a deployment of the web client over HTTP: `node deploy/smoke-test.mjs http://localhost:8080`.
 * Works against the companion server (`npm start`) and against nginx or Caddy with the configs in
 * this folder in front of a SyncTV-contract server. Each check prints `ok` or `FAIL <why>`; the exit
 * code is 1 when any failed.
 *
 * Which document answered is read from the route boot script's build-time config that every page
 * carries (`"doc":"/cinema/_"`, see components/layout/route-boot-script.ts).
 * The API part signs up a throwaway user (password signup must be open), creates a room and opens
 * its WebSocket through the front, so it proves the upgrade is proxied.
 */
import WebSocket from 'ws';

const base = (process.argv[2] ?? '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(base)) {
  console.error('usage: node deploy/smoke-test.mjs <origin, e.g. http://localhost:8080>');
  process.exit(2);
}

const ROOM = '0123456789abcdef0123456789abcdef';
let failures = 0;

async function check(name, run) {
  try {
    await run();
    console.log(`ok    ${name}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL  ${name}: ${error instanceof Error ? error.message : error}`);
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

async function get(path, init = {}) {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

/** The `doc` of the route boot script in an HTML answer, e.g. `/cinema/_`, or null. */
function docOf(html) {
  return /"doc":"([^"]*)"/.exec(html)?.[1] ?? null;
}

async function expectDocument(path, doc, status = 200) {
  const answer = await get(path);
  expect(answer.status === status, `status ${answer.status}, expected ${status}`);
  expect((answer.headers.get('content-type') ?? '').startsWith('text/html'), `content-type ${answer.headers.get('content-type')}`);
  expect(docOf(answer.text) === doc, `served the document of ${docOf(answer.text)}, expected ${doc}`);
  expect(/no-cache/.test(answer.headers.get('cache-control') ?? ''), `cache-control ${answer.headers.get('cache-control')}, expected no-cache`);
}

await check('/ and /web redirect to /web/', async () => {
  for (const path of ['/', '/web']) {
    const answer = await get(path);
    expect(answer.status === 301 || answer.status === 308, `${path}: status ${answer.status}`);
    expect(new URL(answer.headers.get('location') ?? '', `${base}${path}`).pathname === '/web/', `${path}: location ${answer.headers.get('location')}`);
  }
});

await check('home page', () => expectDocument('/web/', '/'));
await check('documents carry their script policy and refuse framing', async () => {
  const answer = await get('/web/');
  expect(/<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self'[^"]*'sha256-/.test(answer.text), 'no script policy meta (scripts/csp.mjs)');
  expect(/frame-ancestors/.test(answer.headers.get('content-security-policy') ?? ''), 'no Content-Security-Policy header with frame-ancestors');
  expect(answer.headers.get('x-content-type-options') === 'nosniff', 'no X-Content-Type-Options: nosniff');
});
await check('a static route, with and without the trailing slash', async () => {
  await expectDocument('/web/auth/login/', '/auth/login');
  await expectDocument('/web/auth/login', '/auth/login');
});
await check('any room id gets the placeholder room page', async () => {
  await expectDocument(`/web/cinema/${ROOM}/`, '/cinema/_');
  await expectDocument(`/web/cinema/${ROOM}`, '/cinema/_');
  await expectDocument('/web/joinRoom/', '/joinRoom');
  await expectDocument(`/web/joinRoom/${ROOM}/`, '/joinRoom/_');
});
await check("a room's RSC payload (soft navigation between rooms)", async () => {
  const answer = await get(`/web/cinema/${ROOM}/index.txt`);
  expect(answer.status === 200, `status ${answer.status}`);
  expect((answer.headers.get('content-type') ?? '').startsWith('text/plain'), `content-type ${answer.headers.get('content-type')}`);
});
await check('unknown paths get the 404 page with status 404', () => expectDocument('/web/no/such/page/', '/_not-found', 404));

await check('hashed assets: a year, immutable, gzip', async () => {
  const home = await get('/web/');
  const script = /\/web\/_next\/static\/chunks\/[^"]+\.js/.exec(home.text)?.[0];
  expect(script, 'no script found in the home page');
  const answer = await get(script, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(answer.status === 200, `status ${answer.status}`);
  const cache = answer.headers.get('cache-control') ?? '';
  expect(/max-age=31536000/.test(cache) && /immutable/.test(cache), `cache-control ${cache}`);
  expect(answer.headers.get('content-encoding') === 'gzip', `content-encoding ${answer.headers.get('content-encoding')}`);
});

await check('API and room WebSocket through the front', async () => {
  const settings = await get('/api/public/settings');
  expect(settings.status === 200 && JSON.parse(settings.text).data, `GET /api/public/settings: ${settings.status}`);
  const username = `smoke-${Date.now().toString(36)}`;
  const signup = await fetch(`${base}/api/user/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: 'smoke-test-pass' }),
  }).then((response) => response.json());
  const token = signup?.data?.token;
  expect(token, `signup: ${JSON.stringify(signup)}`);
  const room = await fetch(`${base}/api/room/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify({ roomName: username, password: '', settings: { hidden: true } }),
  }).then((response) => response.json());
  expect(room?.data?.roomId, `create room: ${JSON.stringify(room)}`);
  const url = new URL(`/api/room/ws?roomId=${room.data.roomId}`, base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  await new Promise((resolve, reject) => {
    const socket = new WebSocket(url, [token]);
    const timer = setTimeout(() => reject(new Error('no WebSocket open within 5 s')), 5000);
    socket.on('open', () => {
      clearTimeout(timer);
      socket.close();
      resolve();
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
});

console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
