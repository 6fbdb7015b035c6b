import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueName } from './support/api';
import { recordDocumentLoads, settle } from './support/route-cases';

/**
 * Serving mode 1: the companion server, whose placeholder rewrite answers every room id's HTML and
 * RSC payloads (docs/static-export.md §1.4). In-app navigation must never load a document again: a
 * marker put on `window` at the start survives every step, from screen to screen and from one room
 * straight into another, and the page's main frame requests exactly one document.
 */

const MARKER = 'synctv-e2e-marker';

async function setMarker(page: Page): Promise<void> {
  await page.evaluate((value) => ((window as unknown as Record<string, string>).__e2eMarker = value), MARKER);
}

async function expectSameDocument(page: Page, loads: string[], step: string): Promise<void> {
  const marker = await page.evaluate(() => (window as unknown as Record<string, string | undefined>).__e2eMarker);
  expect(marker, `window survived: ${step}`).toBe(MARKER);
  expect(loads, `documents loaded up to: ${step}`).toHaveLength(1);
}

async function expectRoom(page: Page, roomId: string): Promise<void> {
  await expect(page.getByTestId('page-cinema')).toHaveAttribute('data-room-id', roomId);
  await expect(page.getByTestId('ws-state')).toHaveAttribute('data-state', 'open');
}

/** Finds a room by name on the search screen and follows its join link (open room: straight into the cinema). */
async function joinThroughSearch(page: Page, roomName: string, roomId: string): Promise<void> {
  await page.getByTestId('nav-search').first().click();
  await expect(page.getByTestId('page-search')).toBeVisible();
  await page.getByRole('searchbox').fill(roomName);
  await page.getByRole('searchbox').press('Enter');
  await page.locator(`[data-testid="room-card"][data-room-id="${roomId}"]`).getByTestId('room-join').click();
  await expectRoom(page, roomId);
}

test('in-app navigation never reloads the page, from screen to screen and from room to room', async ({ app, actors }) => {
  const user = await actors.user('nav');
  const { page } = user;
  const roomA = { name: uniqueName('roomA'), id: '' };
  const roomB = { name: uniqueName('roomB'), id: '' };
  roomA.id = await app.api.createRoom(user.token!, roomA.name);
  roomB.id = await app.api.createRoom(user.token!, roomB.name);
  const loads = recordDocumentLoads(page);

  await page.goto(app.url('/'));
  await expect(page.getByTestId('page-home')).toBeVisible();
  await expect(page.getByTestId('header-username')).toBeVisible();
  await setMarker(page);

  await test.step('header links: rooms, personal center, home', async () => {
    await page.getByTestId('nav-rooms').first().click();
    await expect(page.getByTestId('page-rooms')).toBeVisible();
    await page.getByTestId('header-username').click();
    await page.getByTestId('user-menu-profile').click();
    await expect(page.getByTestId('page-myself')).toBeVisible();
    await page.getByTestId('nav-home').first().click();
    await expect(page.getByTestId('page-home')).toBeVisible();
    await expectSameDocument(page, loads, 'header links');
  });

  await test.step('into room A, then through search into room B', async () => {
    await joinThroughSearch(page, roomA.name, roomA.id);
    await expectSameDocument(page, loads, 'room A');
    await joinThroughSearch(page, roomB.name, roomB.id);
    await expectSameDocument(page, loads, 'room B');
  });

  await test.step('from room B straight into room A, the way a <Link> between rooms navigates', async () => {
    // A router push from one room to another is what <Link href="/cinema/<id>"> does on click;
    // window.next.router is the App Router instance Next exposes in production builds.
    await page.evaluate((id) => (window as unknown as { next: { router: { push(href: string): void } } }).next.router.push(`/cinema/${id}`), roomA.id);
    await expectRoom(page, roomA.id);
    await expect(page).toHaveURL(app.url(`/cinema/${roomA.id}`));
    await expectSameDocument(page, loads, 'room B → room A');
  });

  await test.step('back and forward between the two rooms', async () => {
    await page.goBack();
    await expectRoom(page, roomB.id);
    await page.goForward();
    await expectRoom(page, roomA.id);
    await expectSameDocument(page, loads, 'back/forward between rooms');
  });

  await settle(page);
  expect(user.errors).toEqual([]);
});

test('the companion server answers a room deep link with the room page itself, in one document', async ({ app, actors }) => {
  const user = await actors.user('deep');
  const roomId = await app.api.createRoom(user.token!, uniqueName('deep'));
  const loads = recordDocumentLoads(user.page);
  const response = await user.page.goto(app.url(`/cinema/${roomId}`));
  expect(response?.status()).toBe(200);
  await expectRoom(user.page, roomId);
  expect(loads, 'no boot-script redirect behind the companion server').toHaveLength(1);
  expect(user.errors).toEqual([]);
});
