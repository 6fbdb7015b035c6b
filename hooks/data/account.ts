'use client';
/**
 * The signed-in person's account (docs/contract.md §4.2, §4.7): signing in and up, the email code
 * flows, OAuth2 sign-in and linked providers, profile changes, and the rooms they created or joined.
 * Writes that change the session's user (`userAtom`) load it again or clear it, so the header and the
 * profile follow at once. Every call throws `ApiError` on failure.
 */
import { useSetAtom } from 'jotai';
import { useMemo } from 'react';
import useSWR from 'swr';
import * as account from '@/lib/api/account';
import * as user from '@/lib/api/user';
import type { JoinedRoomListItem, RoomListItem, UserInfo } from '@/lib/contract/types';
import { signOutLocally, storeToken, userAtom } from '@/lib/session';
import { keys, useRevalidate } from './keys';
import { useServerList, type ListQuery } from './server-list';

export type { Captcha, EmailFlow } from '@/lib/api/account';
export { getCaptcha, sendEmailCode, signupWithEmail, resetPassword, startOAuth2Login, finishOAuth2 } from '@/lib/api/account';
export { login, signup } from '@/lib/api/user';

/** `GET /api/user/me`: the signed-in user `{id, username, email, createdAt (Unix ms), role}`; 401 with a bad token. */
export const loadMe: () => Promise<UserInfo> = user.getMe;

/** The OAuth2 providers the server enables for `purpose` (sign-in, or sign-up for new accounts). */
export function useOAuth2Providers(purpose: 'login' | 'signup') {
  return useSWR(keys.oauth2Providers(purpose), () => (purpose === 'login' ? account.getOAuth2Enabled() : account.getOAuth2SignupEnabled()));
}

/** The providers linked to the account: `{<provider>: {providerUserId, createdAt}}`. */
export function useLinkedProviders() {
  return useSWR(keys.providers(), account.getProviders);
}

/** How many rooms the user created (any status: they all count towards the site's limit); once `enabled`. */
export function useMyRoomCount(enabled: boolean) {
  const { data } = useSWR(enabled ? keys.myRooms({ count: true }) : null, () => user.getMyRooms({ page: 1, max: 1, status: 'all' }));
  return data?.total;
}

/** The status filter of the user's room lists ('all' = any status) and the search scope. */
export type AccountRoomFilter = 'all' | 'active' | 'pending' | 'banned';
export type AccountRoomScope = 'all' | 'name' | 'id';

/**
 * The rooms the user created (`kind` 'created', `GET /api/user/rooms`) or joined without creating
 * (`GET /api/user/rooms/joined`), `pageSize` to a page, paged by the server.
 */
export function useAccountRooms(kind: 'created' | 'joined', pageSize: number, initial: Omit<ListQuery<AccountRoomFilter, AccountRoomScope>, 'page' | 'keyword'>) {
  return useServerList<RoomListItem | JoinedRoomListItem, AccountRoomFilter, AccountRoomScope>(
    kind === 'created' ? keys.myRooms : keys.joinedRooms,
    initial,
    ({ filter, keyword, scope, sort, order, page }) => {
      const query = { page, max: pageSize, keyword: keyword || undefined, search: scope, sort, order, status: filter };
      return kind === 'created' ? user.getMyRooms(query) : user.getJoinedRooms(query);
    },
  );
}

/** The account's writes, one name each. */
export interface AccountActions {
  /** Renames the user, then reloads the session's user. */
  rename(username: string): Promise<void>;
  /** Sets a new password and keeps the fresh token (every older token stops working). */
  changePassword(password: string): Promise<void>;
  /** Binds `email` with the mailed `code`, then reloads the session's user. */
  bindEmail(email: string, code: string): Promise<void>;
  /** Unbinds the email, then reloads the session's user. */
  unbindEmail(): Promise<void>;
  /** Deletes the account and signs out on this device. */
  deleteAccount(): Promise<void>;
  /** Starts linking `provider`; resolves to the provider's page to go to (back at `redirect`). */
  linkProvider(provider: string, redirect: string): Promise<string>;
  /** Unlinks `provider`, then reads the linked providers again. */
  unlinkProvider(provider: string): Promise<void>;
  /** Deletes a room the user created; the room lists are read again. */
  deleteMyRoom(roomId: string): Promise<void>;
  /** Leaves a joined room; the room lists are read again. */
  leaveRoom(roomId: string): Promise<void>;
}

/** The account's writes (see AccountActions). */
export function useAccountActions(): AccountActions {
  const setUser = useSetAtom(userAtom);
  const revalidate = useRevalidate();
  return useMemo(() => {
    const reloadUser = async () => setUser(await user.getMe());
    return {
      rename: async (username) => {
        await user.setUsername(username);
        await reloadUser();
      },
      changePassword: async (password) => {
        const answer = await user.setPassword(password);
        if (answer.token) storeToken(answer.token);
      },
      bindEmail: async (email, code) => {
        await account.bindEmail({ email, captcha: code });
        await reloadUser();
      },
      unbindEmail: async () => {
        await account.unbindEmail();
        await reloadUser();
      },
      deleteAccount: async () => {
        await account.deleteAccount();
        signOutLocally();
        setUser(null);
      },
      linkProvider: async (provider, redirect) => (await account.startOAuth2Bind(provider, redirect)).url,
      unlinkProvider: (provider) => account.unbindOAuth2(provider).finally(() => void revalidate('providers')),
      deleteMyRoom: (roomId) => account.deleteMyRoom(roomId).finally(() => void revalidate('my-rooms', 'joined-rooms')),
      leaveRoom: (roomId) => account.exitRoom(roomId).finally(() => void revalidate('my-rooms', 'joined-rooms')),
    } satisfies AccountActions;
  }, [setUser, revalidate]);
}
