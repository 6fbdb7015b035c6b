/**
 * The viewing hall as a first-time user meets it: a movie added to an empty room plays at once (and
 * a member who may not change the movie is told who can), a movie's title plays it, the chat is
 * still there after a reload and for someone who joins later (the companion server replays it,
 * earlier lines marked), theater mode is kept, and request headers edited on a movie reach the media
 * server. Real browsers against the companion server and the committed test media.
 */
import { Permission } from '../lib/contract/roles';
import { expect, test, type Actors, type App } from './fixtures';
import { CinemaPage } from './pages/cinema-page';
import { uniqueName } from './support/api';

/** A room's creator and a member, both in its hall and connected. */
async function ownerAndFriend(app: App, actors: Actors, prefix: string) {
  const owner = await actors.user('owner');
  const friend = await actors.user('friend');
  const roomId = await app.api.createRoom(owner.token!, uniqueName(prefix));
  await app.api.joinRoom(friend.token!, roomId);
  const hallA = new CinemaPage(owner.page, app.origin);
  const hallB = new CinemaPage(friend.page, app.origin);
  for (const hall of [hallA, hallB]) {
    await hall.goto(roomId);
    await hall.waitConnected();
  }
  return { owner, friend, roomId, hallA, hallB };
}

test('a movie added to an empty room plays at once for everyone; its title plays another; who may not change the movie is told who can', async ({ app, actors, media }) => {
  test.setTimeout(90_000);
  const { owner, friend, roomId, hallA, hallB } = await ownerAndFriend(app, actors, 'empty');

  await test.step('the empty player offers "Add a movie", which opens the form at its address field', async () => {
    await expect(owner.page.getByTestId('cinema-empty')).toContainText('Add a movie and it starts at once');
    // A member who may not add movies is told so instead of being offered the button.
    await expect(friend.page.getByTestId('empty-add-movie')).toHaveCount(0);
    await expect(friend.page.getByTestId('denied-add').first()).toContainText("don't include adding movies");
    await owner.page.getByTestId('empty-add-movie').click();
    await expect(owner.page.getByTestId('movie-push-url')).toBeFocused();
  });

  await test.step('an address alone is enough: named after the file, it plays for both at once', async () => {
    await owner.page.getByTestId('movie-push-url').fill(`${media.url}/mp4/clip.mp4`);
    await expect(owner.page.locator('#movie-push-name-hint')).toContainText('“clip”');
    await owner.page.getByTestId('movie-push-submit').click();
    await expect(owner.page.locator('[data-sonner-toast]').filter({ hasText: 'Added and playing clip' })).toBeVisible();
    for (const hall of [hallA, hallB]) {
      await expect(hall.currentMovieName).toHaveText('clip');
      await expect.poll(async () => (await hall.media()).currentTime, { timeout: 15_000 }).toBeGreaterThan(0.5);
    }
    // Both chats say what started, and who started it.
    await expect(friend.page.getByTestId('chat-system')).toContainText(`${owner.username} started clip`);
  });

  await test.step("a movie's title plays it", async () => {
    await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8`, name: 'second' });
    await hallA.movieItem('second').getByTestId('movie-title').click();
    for (const hall of [hallA, hallB]) await expect(hall.currentMovieName).toHaveText('second');
    // The current movie's title is no button (it plays already).
    await expect(hallA.movieItem('second').getByTestId('movie-title')).toHaveCount(0);
  });

  await test.step('a member who may add but not change the movie adds one to a stopped room and is told who can play it', async () => {
    await app.api.setMemberPermissions(owner.token!, roomId, friend.token!, Permission.GetMovieList | Permission.AddMovie | Permission.SendChatMessage);
    await app.api.setCurrent(owner.token!, roomId, '');
    await expect(hallB.currentMovieName).toHaveCount(0);
    await friend.page.getByTestId('empty-add-movie').click();
    await friend.page.getByTestId('movie-push-url').fill(`${media.url}/mp4/clip.mp4`);
    await friend.page.getByTestId('movie-push-name').fill('from the friend');
    await friend.page.getByTestId('movie-push-submit').click();
    await expect(friend.page.locator('[data-sonner-toast]').filter({ hasText: 'ask someone in the room who may to play it' })).toBeVisible();
    await expect(hallA.movieItem('from the friend')).toHaveCount(1);
    await expect(hallA.currentMovieName).toHaveCount(0);
  });
  expect(owner.errors).toEqual([]);
  expect(friend.errors).toEqual([]);
});

test('the chat is still there after a reload and for someone who comes later, earlier lines marked', async ({ app, actors }) => {
  const { owner, friend, roomId, hallA, hallB } = await ownerAndFriend(app, actors, 'chat');
  await hallA.sendChat('first line');
  await hallB.sendChat('second line');
  await expect(hallA.chatMessages).toHaveCount(2);

  await test.step('after a reload the lines are there once each', async () => {
    await friend.page.reload();
    await hallB.waitConnected();
    await expect(hallB.chatMessages).toHaveText([/first line/, /second line/]);
  });

  await test.step('someone who comes later sees them as earlier messages, then new ones live', async () => {
    const late = await actors.user('late');
    await app.api.joinRoom(late.token!, roomId);
    const hallC = new CinemaPage(late.page, app.origin);
    await hallC.goto(roomId);
    await hallC.waitConnected();
    const earlier = late.page.getByTestId('chat-earlier');
    await expect(earlier).toBeVisible();
    await expect(earlier.getByTestId('chat-message')).toHaveText([new RegExp(`${owner.username}: first line`), new RegExp(`${friend.username}: second line`)]);
    await hallA.sendChat('third line');
    await expect(hallC.chatMessages.last()).toContainText('third line');
    await expect(hallC.chatMessages.last()).not.toHaveAttribute('data-earlier');
    expect(late.errors).toEqual([]);
  });
  expect(owner.errors).toEqual([]);
  expect(friend.errors).toEqual([]);
});

test('theater mode puts the video across the window, the chat beside the list, and is kept after a reload', async ({ app, actors, media }) => {
  const owner = await actors.user('owner');
  await owner.page.setViewportSize({ width: 1440, height: 900 });
  const roomId = await app.api.createRoom(owner.token!, uniqueName('theater'));
  const movieId = await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'clip' });
  await app.api.setCurrent(owner.token!, roomId, movieId);
  const hall = new CinemaPage(owner.page, app.origin);
  await hall.goto(roomId);
  await hall.waitMediaLoaded();
  const box = (testId: string) => owner.page.getByTestId(testId).boundingBox().then((found) => found!);

  // Beside the chat, the video takes what the chat leaves.
  const before = await box('player');
  expect((await box('chat-input')).x, 'the chat sits right of the video').toBeGreaterThan(before.x + before.width);
  await owner.page.getByTestId('theater-toggle').click();
  await expect(owner.page.getByTestId('theater-toggle')).toHaveAttribute('aria-pressed', 'true');

  const check = async () => {
    const video = await box('player');
    expect(video.width, 'the video is wider than beside the chat').toBeGreaterThan(before.width + 200);
    expect(video.y + video.height, 'and never taller than the window').toBeLessThanOrEqual(900);
    expect((await box('chat-input')).y, 'the chat is under the video').toBeGreaterThan(video.y + video.height);
  };
  await check();
  await owner.page.reload();
  await hall.waitMediaLoaded();
  await expect(owner.page.getByTestId('theater-toggle')).toHaveAttribute('aria-pressed', 'true');
  await check();
  // `t` in the player switches it back.
  await owner.page.getByTestId('player-play').focus();
  await owner.page.keyboard.press('t');
  await expect(owner.page.getByTestId('theater-toggle')).toHaveAttribute('aria-pressed', 'false');
  expect(owner.errors).toEqual([]);
});

test('request headers edited on a movie are sent to the media server', async ({ app, actors, media }) => {
  const owner = await actors.user('owner');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('headers'));
  await app.api.pushMovie(owner.token!, roomId, { url: `${media.url}/clip/index.m3u8?edited=1`, name: 'with headers' });
  const hall = new CinemaPage(owner.page, app.origin);
  await hall.goto(roomId);
  await hall.waitConnected();

  await hall.openMovieActions('with headers');
  await owner.page.getByTestId('movie-edit').click();
  const dialog = owner.page.getByTestId('movie-edit-dialog');
  await dialog.getByTestId('movie-push-add-headers').click();
  await dialog.getByRole('textbox', { name: 'Name' }).last().fill('X-Room-Token');
  await dialog.getByRole('textbox', { name: 'Value' }).last().fill('edited-in-the-dialog');
  await owner.page.getByTestId('movie-edit-save').click();
  await expect(dialog).toBeHidden();

  // The edit is stored: the dialog shows it again.
  await hall.openMovieActions('with headers');
  await owner.page.getByTestId('movie-edit').click();
  await expect(dialog.getByRole('textbox', { name: 'Value' }).last()).toHaveValue('edited-in-the-dialog');
  await owner.page.keyboard.press('Escape');

  await hall.playMovie('with headers');
  await hall.waitMediaLoaded();
  const sent = media.requests.filter((request) => request.path.startsWith('/clip/') && request.headers['x-room-token'] === 'edited-in-the-dialog');
  expect(sent.length, 'playlist and segment requests carry the header').toBeGreaterThan(1);
  expect(owner.errors).toEqual([]);
});
