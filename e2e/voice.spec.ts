/**
 * Voice chat between two browsers in one room: real WebRTC between two Chromium pages, with
 * Chromium's fake microphone (a tone) and the companion server relaying the signalling. Who may
 * not join is told why (a visitor gets the way in).
 */
import { DefaultPermissions, Permission } from '../lib/contract/roles';
import { expect, test } from './fixtures';
import { uniqueName } from './support/api';
import { CinemaPage } from './pages/cinema-page';

test('two members talk: each hears the other (the speaking light), mute and leave reach the other side', async ({ app, actors }) => {
  const ann = await actors.user('ann');
  const bob = await actors.user('bob');
  const roomId = await app.api.createRoom(ann.token!, uniqueName('voice'));
  await app.api.joinRoom(bob.token!, roomId);
  for (const actor of [ann, bob]) {
    const hall = new CinemaPage(actor.page, app.origin);
    await hall.goto(roomId);
    await hall.waitConnected();
  }
  const annId = await app.api.userId(ann.token!);
  const bobId = await app.api.userId(bob.token!);

  await ann.page.getByTestId('voice-join').click();
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (1)');
  await bob.page.getByTestId('voice-join').click();
  await expect(bob.page.getByTestId('voice-leave')).toHaveText('Leave voice (2)');
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (2)');

  // Each sees the other connected, and the other's tone lights them up as speaking.
  const bobAtAnn = ann.page.locator(`[data-testid="voice-person"][data-user-id="${bobId}"]`);
  const annAtBob = bob.page.locator(`[data-testid="voice-person"][data-user-id="${annId}"]`);
  await expect(bobAtAnn).toHaveAttribute('data-state', 'connected');
  await expect(annAtBob).toHaveAttribute('data-state', 'connected');
  await expect(bobAtAnn).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });
  await expect(annAtBob).toHaveAttribute('data-speaking', 'true', { timeout: 15_000 });

  // Bob mutes: Ann hears silence from him.
  await bob.page.getByTestId('voice-mute').click();
  await expect(bob.page.getByTestId('voice-mute')).toHaveAttribute('aria-pressed', 'true');
  await expect(bobAtAnn).toHaveAttribute('data-speaking', 'false', { timeout: 15_000 });

  // Bob leaves: Ann is alone in the call; Bob can join again.
  await bob.page.getByTestId('voice-leave').click();
  await expect(bob.page.getByTestId('voice-join')).toBeEnabled();
  await expect(ann.page.getByTestId('voice-leave')).toHaveText('Leave voice (1)');
  await expect(bobAtAnn).toHaveCount(0);
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
