/**
 * Formats other than HLS and MP4 (issue 10): an HTTP-FLV clip (mpegts.js) and a DASH clip (dash.js),
 * each loaded only when the movie needs it, play in two browsers and stay together within 100 ms.
 * The clips are the HLS test clip's first 40 s remuxed (scripts/make-test-media.sh).
 */
import { expect, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { describe, isPlaying, samplePair } from './support/playback';
import { pollUntil } from './support/poll';

const SYNC_TOLERANCE_SEC = 0.1;

for (const format of [
  { name: 'FLV', path: '/flv/clip.flv' },
  { name: 'DASH', path: '/dash/manifest.mpd' },
]) {
  test(`a ${format.name} movie plays in two browsers, in sync`, async ({ app, actors, media }) => {
    test.setTimeout(60_000);
    const a = await actors.user('owner');
    const b = await actors.user('viewer');
    const roomId = await app.api.createRoom(a.token!, uniqueName(format.name.toLowerCase()));
    const movieId = await app.api.pushMovie(a.token!, roomId, { url: `${media.url}${format.path}`, name: `${format.name} clip` });
    await app.api.setCurrent(a.token!, roomId, movieId);

    const cinemaA = new CinemaPage(a.page, app.origin);
    const cinemaB = new CinemaPage(b.page, app.origin);
    await cinemaA.goto(roomId);
    await cinemaA.waitMediaLoaded();
    await cinemaB.goto(roomId);
    await cinemaB.waitMediaLoaded();

    // "Play this" started the room at 0 s; both play and stay together.
    const together = await pollUntil(
      () => samplePair(a.page, b.page),
      (pair) => isPlaying(pair.a) && isPlaying(pair.b) && Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC && pair.a.currentTime > 1,
      { timeoutMs: 15_000 },
    );
    expect(together.ok, `not playing together: A ${describe(together.last.a)} | B ${describe(together.last.b)}`).toBe(true);

    await cinemaA.pause();
    const paused = await pollUntil(
      () => samplePair(a.page, b.page),
      (pair) => pair.a.paused && pair.b.paused && Math.abs(pair.driftSec) < SYNC_TOLERANCE_SEC,
      { timeoutMs: 3000 },
    );
    expect(paused.ok, `B did not pause with A: A ${describe(paused.last.a)} | B ${describe(paused.last.b)}`).toBe(true);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
}
