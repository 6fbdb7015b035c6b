/**
 * Voice chat between two browsers in one room: real WebRTC between two Chromium pages, with
 * Chromium's fake microphone (a tone) and the companion server relaying the signalling, over a
 * movie that the call ducks. Who may not join is told why (a visitor gets the way in).
 */
import type { Page } from '@playwright/test';
import { DefaultPermissions, Permission } from '../lib/contract/roles';
import { expect, test } from './fixtures';
import { uniqueName } from './support/api';
import { CinemaPage } from './pages/cinema-page';
import { startContractVoiceClient } from './support/contract-voice-client';
import { isPlaying } from './support/playback';

/** The player's volume in `page` (0..1). */
const movieVolume = (page: Page) => page.getByTestId('player-video').evaluate((video: HTMLVideoElement) => video.volume);

/** What `recordSockets` adds to the page's window. */
interface SocketProbe {
  __socketsOpened: number;
  __dropSockets(): void;
}

/**
 * Wraps the page's WebSocket so a test can drop the room socket as a network loss would (the app
 * did not close it, so it reconnects).
 */
async function recordSockets(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    const open: WebSocket[] = [];
    const probe = window as unknown as SocketProbe;
    probe.__socketsOpened = 0;
    probe.__dropSockets = () => open.splice(0).forEach((socket) => socket.close());
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        open.push(this);
        probe.__socketsOpened += 1;
      }
    };
  });
}

test('members talk over the movie: each hears the others (the speaking light, the movie ducked) and sees a camera; mute, push-to-talk, a dropped socket, a third person, a ban and leaving reach everyone', async ({ app, media, actors }) => {
  test.setTimeout(120_000);
  const ann = await actors.user('ann');
  const bob = await actors.user('bob');
  const cara = await actors.user('cara');
  const roomId = await app.api.createRoom(ann.token!, uniqueName('voice'));
  for (const actor of [bob, cara]) await app.api.joinRoom(actor.token!, roomId);
  // A movie plays for the room (making it current starts it).
  const movieId = await app.api.pushMovie(ann.token!, roomId, { url: `${media.url}/mp4/clip.mp4`, name: 'clip' });
  await app.api.setCurrent(ann.token!, roomId, movieId);
  await recordSockets(bob.page);
  for (const actor of [ann, bob, cara]) {
    const hall = new CinemaPage(actor.page, app.origin);
    await hall.goto(roomId);
    await hall.waitConnected();
  }
  const annHall = new CinemaPage(ann.page, app.origin);
  await annHall.waitMediaLoaded();
  expect(await movieVolume(ann.page)).toBe(1);
  const [annId, bobId, caraId] = await Promise.all([ann, bob, cara].map((actor) => app.api.userId(actor.token!)));
  const person = (actor: typeof ann, userId: string) => actor.page.locator(`[data-testid="voice-person"][data-user-id="${userId}"]`);

  await ann.page.getByTestId('voice-join').click();
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (1)');
  await bob.page.getByTestId('voice-join').click();
  await expect(bob.page.getByTestId('voice-leave')).toHaveText('Leave voice (2)');
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (2)');

  // Each sees the other connected, and the other's tone lights them up as speaking.
  await expect(person(ann, bobId)).toHaveAttribute('data-state', 'connected');
  await expect(person(bob, annId)).toHaveAttribute('data-state', 'connected');
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect(person(bob, annId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  // The movie goes down under Bob's voice (ducking is on by default).
  await expect.poll(() => movieVolume(ann.page)).toBeCloseTo(0.3, 2);

  // Ann turns her camera on: Bob's tile of her gets frames, Ann sees herself; off, the tile goes.
  await ann.page.getByTestId('voice-camera').click();
  await expect(ann.page.getByTestId('voice-camera')).toHaveAttribute('aria-pressed', 'true');
  await expect(ann.page.locator('[data-testid="voice-video"][data-self="true"]')).toBeVisible();
  const annOnBob = bob.page.locator(`[data-testid="voice-video"][data-user-id="${annId}"]`);
  await expect
    .poll(() => annOnBob.evaluate((video: HTMLVideoElement) => video.videoWidth > 0 && video.currentTime > 0).catch(() => false), { timeout: 15_000 })
    .toBe(true);
  await ann.page.getByTestId('voice-camera').click();
  await expect(ann.page.getByTestId('voice-camera')).toHaveAttribute('aria-pressed', 'false');
  await expect(annOnBob).toHaveCount(0, { timeout: 15_000 });

  // Bob mutes: Ann hears silence from him.
  await bob.page.getByTestId('voice-mute').click();
  await expect(bob.page.getByTestId('voice-mute')).toHaveAttribute('aria-pressed', 'true');
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'false', { timeout: 15_000 });
  // Nobody speaks to Ann now: the movie comes back to its volume.
  await expect.poll(() => movieVolume(ann.page)).toBe(1);
  expect(isPlaying(await annHall.media())).toBe(true);

  // Push-to-talk: Bob's microphone is open only while he holds V.
  await bob.page.getByTestId('voice-mute').click();
  await expect(bob.page.getByTestId('voice-mute')).toHaveAttribute('aria-pressed', 'false');
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await bob.page.getByTestId('voice-settings').locator('summary').click();
  await expect(bob.page.getByTestId('voice-microphone')).toBeVisible();
  await bob.page.getByTestId('voice-push-to-talk').check();
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'false', { timeout: 15_000 });
  // The checkbox keeps the focus: V still talks there (it would not in the chat's input).
  await bob.page.keyboard.down('v');
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await bob.page.keyboard.up('v');
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'false', { timeout: 15_000 });
  await bob.page.getByTestId('voice-push-to-talk').uncheck();
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });

  // Bob's room socket drops: the server ends his part in the call, his hall reconnects and joins
  // the call again by itself, and the two hear each other anew.
  const opened = () => bob.page.evaluate(() => (window as unknown as SocketProbe).__socketsOpened);
  const openedBefore = await opened();
  await bob.page.evaluate(() => (window as unknown as SocketProbe).__dropSockets());
  await expect.poll(opened, { timeout: 15_000 }).toBeGreaterThan(openedBefore);
  await expect(bob.page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  await expect(bob.page.getByTestId('voice-leave')).toHaveText('Leave voice (2)');
  await expect(person(ann, bobId)).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  await expect(person(ann, bobId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect(person(bob, annId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });

  // Cara comes in and hears both; everyone counts three.
  await cara.page.getByTestId('voice-join').click();
  for (const actor of [ann, bob, cara]) await expect(actor.page.getByTestId('voice-leave')).toHaveText('Leave voice (3)');
  await expect(person(cara, annId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect(person(cara, bobId)).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect(person(bob, caraId)).toHaveAttribute('data-state', 'connected');

  // Cara is banned: her hall closes and the others' connections to her go.
  const ban = await app.api.request('POST', '/api/room/admin/members/ban', { token: ann.token, roomId, json: { id: caraId } });
  expect(ban.status).toBe(204);
  await expect(person(ann, caraId)).toHaveCount(0);
  await expect(person(bob, caraId)).toHaveCount(0);
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (2)');

  // Bob leaves: Ann is alone in the call; Bob can join again.
  await bob.page.getByTestId('voice-leave').click();
  await expect(bob.page.getByTestId('voice-join')).toBeEnabled();
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (1)');
  await expect(person(ann, bobId)).toHaveCount(0);
  expect(ann.errors).toEqual([]);
  expect(bob.errors).toEqual([]);
});

test('who may not join voice is told why: a member without the permission, and a visitor with the way in', async ({ app, actors }) => {
  const owner = await actors.user('owner');
  const member = await actors.user('mute');
  const roomId = await app.api.createRoom(owner.token!, uniqueName('voice deny'));
  await app.api.joinRoom(member.token!, roomId);
  await app.api.setMemberPermissions(owner.token!, roomId, member.token!, DefaultPermissions & ~Permission.WebRTC);
  const hall = new CinemaPage(member.page, app.origin);
  await hall.goto(roomId);
  await hall.waitConnected();
  await expect(member.page.getByTestId('voice-denied')).toContainText('You lack the “join voice” permission in this room');
  await expect(member.page.getByTestId('voice-join')).toHaveCount(0);

  const visitor = await actors.visitor();
  await visitor.page.goto(app.url(`/cinema/${roomId}`));
  const login = visitor.page.getByTestId('voice-denied').getByRole('link', { name: 'Log in to join voice chat' });
  await expect(login).toBeVisible();
  await login.click();
  await expect(visitor.page.getByTestId('page-login')).toBeVisible();
  // Logging in comes back to this room.
  expect(new URL(visitor.page.url()).searchParams.get('redirect')).toMatch(new RegExp(`^/cinema/${roomId}/?$`));
});

test('a client built only from the wire contract shares a call with ours, whichever joins first', async ({ app, actors }) => {
  const ann = await actors.user('ann');
  const other = await actors.user('wire');
  const roomId = await app.api.createRoom(ann.token!, uniqueName('voice wire'));
  await app.api.joinRoom(other.token!, roomId);
  const otherId = await app.api.userId(other.token!);
  const hall = new CinemaPage(ann.page, app.origin);
  await hall.goto(roomId);
  await hall.waitConnected();
  // The other client runs in a document of the server's origin that has none of our code (a JSON
  // answer), which is a secure context for the microphone.
  await other.page.goto(`${app.origin}/api/public/settings`);
  const client = await startContractVoiceClient(other.page, app.origin, roomId, other.token!);
  const person = ann.page.locator(`[data-testid="voice-person"][data-user-id="${otherId}"]`);

  // Ours first: the other's JOIN reaches ours, which offers; the other answers.
  await ann.page.getByTestId('voice-join').click();
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (1)');
  await client.join();
  await expect(person).toHaveAttribute('data-state', 'connected');
  await expect(person).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect.poll(() => client.inboundLevel(), { timeout: 15_000 }).toBeGreaterThan(0.02);

  // Theirs first: ours leaves and joins again, so the other offers and ours answers.
  await ann.page.getByTestId('voice-leave').click();
  await expect.poll(() => client.connected()).toBe(0);
  await ann.page.getByTestId('voice-join').click();
  await expect(person).toHaveAttribute('data-state', 'connected');
  await expect(person).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect.poll(() => client.inboundLevel(), { timeout: 15_000 }).toBeGreaterThan(0.02);

  await client.leave();
  await expect(person).toHaveCount(0);
  expect(ann.errors).toEqual([]);
});

