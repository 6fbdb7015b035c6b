/**
 * The room administration data layer as a panel uses it: a member write reads the shown member list
 * again (also when the server refused it), and a preset reaches every plain member across pages.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import * as api from '@/lib/api/room-admin';
import { GUEST_USER_ID, MemberRole } from '@/lib/contract/roles';
import type { RoomMember } from '@/lib/contract/types';
import { useRoomAdminActions, useRoomMembers } from './room-admin';

jest.mock('@/lib/api/room-admin');
const mocked = jest.mocked(api);

const member = (userId: string, role: number = MemberRole.Member, permissions = 0): RoomMember =>
  ({ userId, username: userId, role, permissions, adminPermissions: 0, status: 3, joinAt: 0, onlineCount: 0 }) as unknown as RoomMember;

function wrapper({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>;
}

beforeEach(() => jest.resetAllMocks());

describe('useRoomAdminActions', () => {
  it('reads the shown member list again after a ban, and after a refused one', async () => {
    mocked.listMembers.mockResolvedValue({ total: 1, list: [member('u1')] });
    mocked.memberAction.mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('no permission'));
    const { result } = renderHook(
      () => ({ members: useRoomMembers('room-1', true, { page: 1 }, true), actions: useRoomAdminActions('room-1') }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.members.data?.total).toBe(1));
    expect(mocked.listMembers).toHaveBeenCalledTimes(1);

    await act(() => result.current.actions.banMember('u1'));
    expect(mocked.memberAction).toHaveBeenLastCalledWith('room-1', 'ban', 'u1');
    await waitFor(() => expect(mocked.listMembers).toHaveBeenCalledTimes(2));

    await act(() => expect(result.current.actions.removeMember('u1')).rejects.toThrow('no permission'));
    expect(mocked.memberAction).toHaveBeenLastCalledWith('room-1', 'delete', 'u1');
    await waitFor(() => expect(mocked.listMembers).toHaveBeenCalledTimes(3));
  });

  it('gives every plain member the preset bits across pages, skipping the guest, admins and members who have them', async () => {
    const firstPage = [member(GUEST_USER_ID), member('admin', MemberRole.Admin), member('same', MemberRole.Member, 7), ...Array.from({ length: 97 }, (_, i) => member(`m${i}`))];
    mocked.listMembers
      .mockResolvedValueOnce({ total: 101, list: firstPage })
      .mockResolvedValueOnce({ total: 101, list: [member('last')] })
      .mockResolvedValue({ total: 0, list: [] });
    mocked.setMemberPermissions.mockResolvedValue(undefined);
    const { result } = renderHook(() => useRoomAdminActions('room-1'), { wrapper });

    let changed = 0;
    await act(async () => {
      changed = await result.current.setEveryMemberPermissions(7);
    });
    expect(changed).toBe(98);
    expect(mocked.listMembers).toHaveBeenNthCalledWith(2, 'room-1', { page: 2, max: 100, role: 'member', status: '' }, true);
    const changedIds = mocked.setMemberPermissions.mock.calls.map(([, userId]) => userId);
    expect(changedIds).not.toContain(GUEST_USER_ID);
    expect(changedIds).not.toContain('admin');
    expect(changedIds).not.toContain('same');
    expect(changedIds).toContain('last');
  });
});
