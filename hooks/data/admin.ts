'use client';
/**
 * The site admin console's data (docs/contract.md §4.6): the overview's figures, the user and room
 * lists, a user's rooms, the staff, the settings by group; and `useSiteAdminActions`, the console's
 * writes, each of which reads every console list again (counts, staff roles and rows change together).
 * Every call needs a site admin's token (root to grant or revoke admin) and throws `ApiError` on failure.
 */
import { useMemo } from 'react';
import useSWR from 'swr';
import * as api from '@/lib/api/admin';
import { getHotRooms } from '@/lib/api/room';
import type { SettingValue } from '@/lib/contract/site-settings';
import type { UserInfo } from '@/lib/contract/types';
import { keys, useRevalidate, type Resource } from './keys';
import { useServerList, type ListQuery } from './server-list';

export type { SettingsByGroup } from '@/lib/api/admin';

/** Rows per page of the console's lists. */
export const ADMIN_PAGE_SIZE = 20;

/** The console's lists, read again after every console write. */
const CONSOLE: Resource[] = ['admin-overview', 'admin-staff', 'admin-candidates', 'admin-users', 'admin-rooms', 'admin-user-rooms'];

/** The overview's figures: counts of users and rooms (all and pending), and people watching now. */
export interface AdminFigures {
  users: number;
  pendingUsers: number;
  rooms: number;
  pendingRooms: number;
  /** The viewers of the hot list's rooms (listed rooms with someone connected). */
  watching: number;
}

const ONE = { page: 1, max: 1, keyword: '', search: 'all', sort: 'createdAt', order: 'desc' } as const;

async function loadFigures(): Promise<AdminFigures> {
  const [users, pendingUsers, rooms, pendingRooms, hot] = await Promise.all([
    api.listUsers({ ...ONE, role: '' }),
    api.listUsers({ ...ONE, role: 'pending' }),
    api.listRooms({ ...ONE, status: '' }),
    api.listRooms({ ...ONE, status: 'pending' }),
    getHotRooms({ page: 1, max: 100 }),
  ]);
  return {
    users: users.total,
    pendingUsers: pendingUsers.total,
    rooms: rooms.total,
    pendingRooms: pendingRooms.total,
    watching: (hot.list ?? []).reduce((sum, room) => sum + room.viewerCount, 0),
  };
}

/**
 * The overview's figures from the lists' `total`s and the hot list (so they work against any v0.9.11
 * server), re-read every 10 s.
 */
export function useAdminFigures() {
  return useSWR(keys.adminOverview(), loadFigures, { refreshInterval: 10_000 });
}

/** The user list's filter (a role, or "" for every role) and search scope. */
export type AdminUserFilter = api.AdminUserQuery['role'];
export type AdminUserScope = api.AdminUserQuery['search'];

/** The console's user list, paged by the server (hooks/data/server-list.ts). */
export function useAdminUsers(initial: Omit<ListQuery<AdminUserFilter, AdminUserScope>, 'page' | 'keyword'>) {
  return useServerList<UserInfo, AdminUserFilter, AdminUserScope>(keys.adminUsers, initial, (query) =>
    api.listUsers({ page: query.page, max: ADMIN_PAGE_SIZE, role: query.filter, keyword: query.keyword, search: query.scope, sort: query.sort, order: query.order }),
  );
}

/** The room list's filter (a status, or "" for every status) and search scope. */
export type AdminRoomFilter = api.AdminRoomQuery['status'];
export type AdminRoomScope = api.AdminRoomQuery['search'];

/** The console's room list (every room, hidden ones too), paged by the server. */
export function useAdminRooms(initial: Omit<ListQuery<AdminRoomFilter, AdminRoomScope>, 'page' | 'keyword'>) {
  return useServerList(keys.adminRooms, initial, (query) =>
    api.listRooms({ page: query.page, max: ADMIN_PAGE_SIZE, status: query.filter, keyword: query.keyword, search: query.scope, sort: query.sort, order: query.order }),
  );
}

/** Page `page` (from 1) of the rooms `userId` created, newest first; nothing while `userId` is null. */
export function useAdminUserRooms(userId: string | null, page: number) {
  return useSWR(userId ? keys.adminUserRooms(userId, page) : null, () =>
    api.listUserRooms(userId!, { page, max: ADMIN_PAGE_SIZE, status: '', keyword: '', search: 'all', sort: 'createdAt', order: 'desc' }),
  );
}

const STAFF_QUERY = { page: 1, max: 100, keyword: '', search: 'name', sort: 'name', order: 'asc' } as const;

/** The site's roots, then its admins, by name (up to 100 of each). */
export function useStaff() {
  return useSWR(keys.adminStaff(), async () => {
    const [roots, admins] = await Promise.all([api.listUsers({ ...STAFF_QUERY, role: 'root' }), api.listUsers({ ...STAFF_QUERY, role: 'admin' })]);
    return [...(roots.list ?? []), ...(admins.list ?? [])];
  });
}

/** Up to 8 plain users whose name matches `keyword` (root's "make admin" search); nothing while `keyword` is null. */
export function useAdminCandidates(keyword: string | null) {
  return useSWR(keyword ? keys.adminCandidates(keyword) : null, () => api.listUsers({ ...STAFF_QUERY, max: 8, keyword: keyword!, role: 'user' }));
}

/** The site settings of `group` (`{<group>: {<name>: value}}`); 400 `group not found` when the server has none. */
export function useSiteSettings(group: string) {
  return useSWR(keys.siteSettings(group), () => api.getSiteSettings(group));
}

/** The console's writes, one name each (docs/contract.md §4.6 for their refusals). */
export interface SiteAdminActions {
  approveUser(id: string): Promise<void>;
  banUser(id: string): Promise<void>;
  unbanUser(id: string): Promise<void>;
  deleteUser(id: string): Promise<void>;
  /** Adds a user with `role` (a Role number). */
  addUser(username: string, password: string, role: number): Promise<void>;
  renameUser(id: string, username: string): Promise<void>;
  /** Sets a user's password (the user's sessions end). */
  setUserPassword(id: string, password: string): Promise<void>;
  /** Root only: User → Admin. */
  grantAdmin(id: string): Promise<void>;
  /** Root only: Admin → User. */
  revokeAdmin(id: string): Promise<void>;
  approveRoom(id: string): Promise<void>;
  /** Bans a room (everyone in it is disconnected). */
  banRoom(id: string): Promise<void>;
  unbanRoom(id: string): Promise<void>;
  deleteRoom(id: string): Promise<void>;
  setRoomPassword(id: string, password: string): Promise<void>;
  /** Writes the settings in `patch` at once (400 names the first refused one; nothing is written then). */
  updateSiteSettings(patch: Record<string, SettingValue>): Promise<void>;
  /** Sends a test mail to `email` ("" = the caller's bound email). */
  sendTestMail(email: string): Promise<void>;
}

/** The console's writes; each reads the console's lists (or the settings) again, also after a refusal. */
export function useSiteAdminActions(): SiteAdminActions {
  const revalidate = useRevalidate();
  return useMemo(() => {
    const andRefresh = (write: Promise<void>): Promise<void> => write.finally(() => void revalidate(...CONSOLE));
    return {
      approveUser: (id) => andRefresh(api.userAction('approve', id)),
      banUser: (id) => andRefresh(api.userAction('ban', id)),
      unbanUser: (id) => andRefresh(api.userAction('unban', id)),
      deleteUser: (id) => andRefresh(api.userAction('delete', id)),
      addUser: (username, password, role) => andRefresh(api.addUser(username, password, role)),
      renameUser: (id, username) => andRefresh(api.setUsername(id, username)),
      setUserPassword: (id, password) => api.setUserPassword(id, password),
      grantAdmin: (id) => andRefresh(api.makeAdmin(id)),
      revokeAdmin: (id) => andRefresh(api.removeAdmin(id)),
      approveRoom: (id) => andRefresh(api.roomAction('approve', id)),
      banRoom: (id) => andRefresh(api.roomAction('ban', id)),
      unbanRoom: (id) => andRefresh(api.roomAction('unban', id)),
      deleteRoom: (id) => andRefresh(api.roomAction('delete', id)),
      setRoomPassword: (id, password) => andRefresh(api.setRoomPassword(id, password)),
      updateSiteSettings: (patch) => api.updateSiteSettings(patch).finally(() => void revalidate('site-settings')),
      sendTestMail: (email) => api.sendTestMail(email),
    } satisfies SiteAdminActions;
  }, [revalidate]);
}
