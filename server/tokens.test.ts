/** @jest-environment node */
/**
 * The tokens the movie proxy hands out (docs/security.md "Tokens in URLs"): each names its room and
 * movie, expires, and verifies only under the site's secret. ./auth.ts signs with jose, an ES module
 * Jest does not load, so the tokens are made and read by a script run under tsx, as the server runs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './test-support/harness';

/** What the script saw, by check. */
interface Seen {
  input: unknown;
  inputLater: unknown;
  inputElsewhere: unknown;
  inputForged: unknown;
  inputExtended: unknown;
  inputClaimsOnly: unknown;
  inputEmpty: unknown;
  targetTtls: number[];
  target: unknown;
  targetExpired: string;
}

let seen: Seen;

beforeAll(() => {
  const script = path.join(tempDir('tokens-'), 'check.mts');
  fs.writeFileSync(
    script,
    `
import crypto from 'node:crypto';
import { fixedKeyRing, LIVE_TARGET_TOKEN_TTL_SEC, TARGET_TOKEN_TTL_SEC, TokenService } from ${JSON.stringify(path.join(__dirname, 'auth.ts'))};
const tokens = new TokenService(fixedKeyRing(crypto.randomBytes(32)));
const other = new TokenService(fixedKeyRing(crypto.randomBytes(32)));
const nowSec = Math.floor(Date.now() / 1000);
const target = { roomId: 'r', movieId: 'm', source: 's', url: 'http://cdn.test/a.ts', playlist: false, expiresSec: nowSec + 60 };
const token = tokens.signInput(target);
const [claims, signature] = token.split('.');
const forged = Buffer.from(JSON.stringify(['r', 'm', 's', 'http://10.0.0.1/', 0, nowSec + 60])).toString('base64url');
const claimsOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
const plain = { roomId: 'r', movieId: 'm', url: 'http://cdn.test/seg.ts', playlist: false };
const ttls = [];
for (const ttl of [TARGET_TOKEN_TTL_SEC, LIVE_TARGET_TOKEN_TTL_SEC]) ttls.push(claimsOf(await tokens.signProxyTarget(plain, ttl)).exp - nowSec);
const expired = await tokens.signProxyTarget(plain, -1);
console.log(JSON.stringify({
  input: tokens.verifyInput(token),
  inputLater: tokens.verifyInput(token, nowSec + 61),
  inputElsewhere: other.verifyInput(token),
  inputForged: tokens.verifyInput(forged + '.' + signature),
  inputExtended: tokens.verifyInput(token + '.x'),
  inputClaimsOnly: tokens.verifyInput(claims),
  inputEmpty: tokens.verifyInput(''),
  targetTtls: ttls,
  target: await tokens.verifyProxyTarget(await tokens.signProxyTarget(plain)),
  targetExpired: await tokens.verifyProxyTarget(expired).then(() => 'accepted', (error) => error.message),
}));
`,
  );
  seen = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: path.join(__dirname, '..'), encoding: 'utf8' })) as Seen;
});

describe("ffmpeg's input tokens", () => {
  it('name the room, the movie, what it plays and the address, until they expire', () => {
    expect(seen.input).toEqual({ roomId: 'r', movieId: 'm', source: 's', url: 'http://cdn.test/a.ts', playlist: false, expiresSec: expect.any(Number) });
    expect(seen.inputLater).toBeNull();
  });

  it("verify under this site's secret only, whole and untouched", () => {
    expect([seen.inputElsewhere, seen.inputForged, seen.inputExtended, seen.inputClaimsOnly, seen.inputEmpty]).toEqual([null, null, null, null, null]);
  });
});

describe('proxy target tokens', () => {
  it('expire: a day for an on-demand playlist, ten minutes for a live one', () => {
    const [vod, live] = seen.targetTtls;
    expect(Math.abs(vod - 24 * 3600)).toBeLessThanOrEqual(2);
    expect(Math.abs(live - 600)).toBeLessThanOrEqual(2);
    expect(seen.target).toEqual({ roomId: 'r', movieId: 'm', url: 'http://cdn.test/seg.ts', playlist: false, base: false });
    expect(seen.targetExpired).toBe('invalid proxy target');
  });
});
