import { expect, test } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';
import { blockAutoplayWithSound } from './support/autoplay';
import { isPlaying } from './support/playback';

test('a viewer whose browser blocks autoplay with sound plays muted and is told so', async ({ app, media, actors }) => {
  const owner = await actors.user('o');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('autoplay'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'Timecode clip' });
  // Making it current starts it playing for the room (docs/contract.md §4.5).
  await app.api.setCurrent(owner.token!, roomId, movieId);

  const viewer = await actors.user('v');
  await blockAutoplayWithSound(viewer.context);
  const cinema = new CinemaPage(viewer.page, app.origin);
  await cinema.goto(roomId);

  await expect
    .poll(async () => {
      const sample = await cinema.media();
      return { playing: isPlaying(sample), muted: sample.muted };
    }, { message: 'the viewer should play the room muted after the blocked play()' })
    .toEqual({ playing: true, muted: true });
  await expect(cinema.mutedNotice).toBeVisible();
  expect(viewer.errors).toEqual([]);
});
