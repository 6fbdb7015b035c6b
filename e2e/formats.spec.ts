/**
 * Formats other than HLS and MP4: an HTTP-FLV clip (mpegts.js) and a DASH clip (dash.js),
 * each loaded only when the movie needs it, play in two browsers and stay together within 100 ms.
 * The clips are the HLS test clip's first 40 s remuxed (scripts/make-test-media.sh).
 */
import { expect, test } from './fixtures';
import { describe, samplePair } from './support/playback';
import { pollUntil } from './support/poll';
import { expectTogether, openWatchParty, SYNC_TOLERANCE_SEC } from './support/watch-party';

for (const format of [
  { name: 'FLV', path: '/flv/clip.flv' },
  { name: 'DASH', path: '/dash/manifest.mpd' },
]) {
  test(`a ${format.name} movie plays in two browsers, in sync`, async ({ app, actors, media }) => {
    test.setTimeout(60_000);
    const { a, b, cinemaA } = await openWatchParty(app, actors, format.name.toLowerCase(), { url: `${media.url}${format.path}`, name: `${format.name} clip` });

    // "Play this" started the room at 0 s; both play and stay together.
    await expectTogether(a.page, b.page);

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
