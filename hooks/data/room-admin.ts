'use client';
/**
 * A room's members and settings, and what its admins do with them (docs/contract.md §4.4, §5.5):
 * reads are SWR hooks in the hall's cache (keys in ./keys.ts); `useRoomAdminActions` names each
 * write once and reads the member lists again after a member changed. Every call throws `ApiError`
 * on failure; v0.9.11 answers the member actions' failures with 500 and the companion server with
 * 400/403/404, with the same text (docs/compatibility.md), so callers describe errors by their text.
 */
import { useMemo } from 'react';
import useSWR from 'swr';
import * as api from '@/lib/api/room-admin';
import { GUEST_USER_ID, MemberRole } from '@/lib/contract/roles';
import type { MemberListQuery, RoomSettings } from '@/lib/contract/types';
import { keys, useRevalidate } from './keys';

export { checkRoomPassword } from '@/lib/api/room-admin';

/** Largest page of the member list (docs/contract.md §4 conventions). */
const MAX_PAGE = 100;

/**
 * One page of the room's members once `enabled`: the admins' view (every status) when `asAdmin`,
 * else the members' view. Re-read every `refreshMs` (ms) when given.
 */
export function useRoomMembers(roomId: string, asAdmin: boolean, query: MemberListQuery, enabled: boolean, refreshMs?: number) {
  return useSWR(enabled ? keys.members(roomId, asAdmin, query) : null, () => api.listMembers(roomId, query, asAdmin), {
    refreshInterval: refreshMs,
    keepPreviousData: true,
  });
}

/** The room's settings once `enabled`: `GET /api/room/admin/settings` for room admins, else `/api/room/settings`. */
export function useRoomSettings(roomId: string, asAdmin: boolean, enabled: boolean) {
  return useSWR(enabled ? keys.roomSettings(roomId, asAdmin) : null, () => api.getRoomSettings(roomId, asAdmin));
}

/** The writes of room administration for `roomId`, one name each. */
export interface RoomAdminActions {
  /** `POST /api/room/admin/members/approve`: a pending member becomes active. */
  approveMember(userId: string): Promise<void>;
  banMember(userId: string): Promise<void>;
  unbanMember(userId: string): Promise<void>;
  /** Removes the member from the room (`…/members/delete`). */
  removeMember(userId: string): Promise<void>;
  /** Makes a member a room admin with the admin permission bits `adminPermissions`. */
  promoteToAdmin(userId: string, adminPermissions: number): Promise<void>;
  /** Makes a room admin a plain member with the member permission bits `permissions`. */
  demoteToMember(userId: string, permissions: number): Promise<void>;
  setMemberPermissions(userId: string, permissions: number): Promise<void>;
  setAdminPermissions(userId: string, adminPermissions: number): Promise<void>;
  /**
   * Gives every plain member the mask `permissions` (creator only: §4.4), one call per member that
   * differs. Resolves to how many changed; throws the first failing call's `ApiError`.
   */
  setEveryMemberPermissions(permissions: number): Promise<number>;
  /** `POST /api/room/admin/settings` with the keys in `patch`. */
  updateSettings(patch: Partial<RoomSettings>): Promise<void>;
  /** Sets (or, with "", removes) the room's password. */
  setPassword(password: string): Promise<void>;
  /** Deletes the room (creator only). */
  deleteRoom(): Promise<void>;
}

/** The room administration writes for `roomId`; a member write reads the member lists again. */
export function useRoomAdminActions(roomId: string): RoomAdminActions {
  const revalidate = useRevalidate();
  return useMemo(() => {
    const members = <T>(write: Promise<T>): Promise<T> =>
      write.finally(() => void revalidate('room-members'));
    return {
      approveMember: (userId) => members(api.memberAction(roomId, 'approve', userId)),
      banMember: (userId) => members(api.memberAction(roomId, 'ban', userId)),
      unbanMember: (userId) => members(api.memberAction(roomId, 'unban', userId)),
      removeMember: (userId) => members(api.memberAction(roomId, 'delete', userId)),
      promoteToAdmin: (userId, adminPermissions) => members(api.makeAdmin(roomId, userId, adminPermissions)),
      demoteToMember: (userId, permissions) => members(api.makeMember(roomId, userId, permissions)),
      setMemberPermissions: (userId, permissions) => members(api.setMemberPermissions(roomId, userId, permissions)),
      setAdminPermissions: (userId, adminPermissions) => members(api.setAdminPermissions(roomId, userId, adminPermissions)),
      setEveryMemberPermissions: (permissions) => members(setEveryMemberPermissions(roomId, permissions)),
      updateSettings: (patch) => api.updateRoomSettings(roomId, patch),
      setPassword: (password) => api.setRoomPassword(roomId, password),
      deleteRoom: () => api.deleteRoom(roomId),
    } satisfies RoomAdminActions;
  }, [roomId, revalidate]);
}

async function setEveryMemberPermissions(roomId: string, permissions: number): Promise<number> {
  let changed = 0;
  for (let page = 1; ; page++) {
    const answer = await api.listMembers(roomId, { page, max: MAX_PAGE, role: 'member', status: '' }, true);
    const list = answer.list ?? [];
    for (const member of list) {
      if (member.userId === GUEST_USER_ID || member.role !== MemberRole.Member || member.permissions >>> 0 === permissions >>> 0) continue;
      await api.setMemberPermissions(roomId, member.userId, permissions);
      changed += 1;
    }
    if (page * MAX_PAGE >= answer.total || list.length === 0) return changed;
  }
}
