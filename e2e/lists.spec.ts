/**
 * The user center's room lists as the reference client has them (docs/reference-client.md §1.2, §1.6):
 * my rooms filtered by status, searched by name and sorted; joined rooms with my status and role in
 * each; and the home page's popular list paged and refreshed.
 */
import type { Page } from '@playwright/test';
import { once } from 'node:events';
import WebSocket from 'ws';
import { expect, ROOT_PASSWORD, test } from './fixtures';
import type { ListResponse, RoomListItem } from '../lib/contract/types';
import { uniqueName } from './support/api';

/** The names of the listed rooms, in order. */
function roomNames(page: Page): Promise<string[]> {
  return page.getByTestId('account-room-name').allTextContents();
}

test('my rooms filter by status, search and sort; joined rooms show my status and role', async ({ app, actors }) => {
  const me = await actors.user('lists');
  const tag = uniqueName('r').slice(-6);
  const names = [`alpha ${tag}`, `bravo ${tag}`, `charlie ${tag}`];
  const ids: string[] = [];
  for (const name of names) ids.push(await app.api.createRoom(me.token!, name));
  const rootToken = await app.api.login('root', ROOT_PASSWORD);
  expect((await app.api.request('POST', '/api/admin/room/ban', { token: rootToken, json: { id: ids[2] } })).status).toBe(204);

  const page = me.page;
  await page.goto(app.url('/user/me'));
  await expect.poll(() => roomNames(page)).toHaveLength(3);

  await test.step('by status', async () => {
    await page.getByTestId('rooms-created-filter-banned').click();
    await expect.poll(() => roomNames(page)).toEqual([names[2]]);
    await page.getByTestId('rooms-created-filter-active').click();
    await expect.poll(async () => (await roomNames(page)).sort()).toEqual([names[0], names[1]]);
    await page.getByTestId('rooms-created-filter-all').click();
  });

  await test.step('by name, sorted either way', async () => {
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('name');
    await page.getByRole('combobox', { name: 'Order' }).selectOption('asc');
    await expect.poll(() => roomNames(page)).toEqual(names);
    await page.getByRole('combobox', { name: 'Order' }).selectOption('desc');
    await expect.poll(() => roomNames(page)).toEqual([...names].reverse());
    await page.getByTestId('rooms-created-search').fill('bravo');
    await expect.poll(() => roomNames(page)).toEqual([names[1]]);
    await page.getByTestId('rooms-created-search').fill('nothing like it');
    await expect(page.getByText('No room matches')).toBeVisible();
  });

  await test.step('joined rooms say whether I am in and as what', async () => {
    const ownerToken = await app.api.signup(uniqueName('host'), 'host-password-1');
    const open = await app.api.createRoom(ownerToken, `open ${tag}`);
    const reviewed = await app.api.createRoom(ownerToken, `reviewed ${tag}`);
    await app.api.request('POST', '/api/room/admin/settings', { token: ownerToken, roomId: reviewed, json: { join_need_review: true } });
    await app.api.joinRoom(me.token!, open);
    await app.api.joinRoom(me.token!, reviewed);
    await page.getByTestId('tab-joined').click();
    await expect.poll(() => roomNames(page)).toHaveLength(2);
    const row = (name: string) => page.getByTestId('account-room').filter({ hasText: name });
    await expect(row(`open ${tag}`).getByTestId('account-room-membership')).toHaveText('Me: joined, member');
    await expect(row(`reviewed ${tag}`).getByTestId('account-room-membership')).toHaveText('Me: awaiting approval, member');
    await page.getByTestId('rooms-joined-search').fill('reviewed');
    await expect.poll(() => roomNames(page)).toEqual([`reviewed ${tag}`]);
  });
  expect(me.errors).toEqual([]);
});

test("the home page's popular list pages and refreshes", async ({ app, actors }) => {
  // The popular list holds rooms someone is in: 13 rooms, each with its creator's socket open (the
  // hall's own socket, opened from here rather than from 13 browser tabs: the list is what is tested).
  const tag = uniqueName('h').slice(-5);
  const sockets: WebSocket[] = [];
  try {
    for (let creator = 0; creator < 5; creator += 1) {
      const token = await app.api.signup(uniqueName(`hot${creator}`), 'hot-password-1');
      for (let i = 0; i < 3 && creator * 3 + i < 13; i += 1) {
        const roomId = await app.api.createRoom(token, `hot ${tag} ${creator * 3 + i}`);
        const socket = new WebSocket(`${app.origin.replace(/^http/, 'ws')}/api/room/ws?roomId=${encodeURIComponent(roomId)}`, [token]);
        sockets.push(socket);
        await once(socket, 'open');
      }
    }
    // The list is the server's, shared with the tests before this one on the same worker: wait until
    // the rooms whose viewers those tests just let go of have left it, so that it holds these 13.
    await expect
      .poll(async () => {
        const { body } = await app.api.request('GET', '/api/room/hot?page=1&max=50');
        const list = ((body?.data as ListResponse<RoomListItem> | undefined)?.list ?? []).map((room) => room.roomName);
        return list.length === 13 && list.every((name) => name.startsWith(`hot ${tag} `));
      })
      .toBe(true);
    const visitor = await actors.visitor();
    await visitor.page.goto(app.url('/'));
    const cards = visitor.page.getByTestId('room-card');
    await expect(cards).toHaveCount(12);
    await visitor.page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next page' }).click();
    await expect(cards).toHaveCount(1);
    await visitor.page.getByTestId('hot-refresh').click();
    await expect(cards).toHaveCount(1);
    expect(visitor.errors).toEqual([]);
  } finally {
    for (const socket of sockets) socket.close();
  }
});
