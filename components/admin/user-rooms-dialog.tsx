'use client';
/**
 * The rooms one user created (§4.6 `GET /api/admin/user/rooms`), in a dialog opened from the user's
 * row, with the same row actions as the room list and paging on the server.
 */
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Modal } from '@/components/ui/modal';
import { ADMIN_PAGE_SIZE, useAdminUserRooms } from '@/hooks/data/admin';
import { Role } from '@/lib/contract/roles';
import type { UserInfo } from '@/lib/contract/types';
import { useT } from '@/lib/i18n';
import { userAtom } from '@/lib/session';
import { ListState } from './list-state';
import { RoomRows } from './rooms-section';
import { useStaffRoles } from './staff-roles';
import '@/lib/i18n/messages/admin';

export function UserRoomsDialog({ user, onClose }: { user: UserInfo | null; onClose: () => void }) {
  const t = useT();
  const me = useAtomValue(userAtom);
  const staff = useStaffRoles();
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useAdminUserRooms(user?.id ?? null, page);
  const rows = data?.list ?? [];
  return (
    <Modal
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) {
          setPage(1);
          onClose();
        }
      }}
      title={user ? t('admin.userRooms.title', { name: user.username }) : ''}
      closeLabel={t('admin.userRooms.close')}
      testId="admin-user-rooms"
    >
      <ListState
        loading={isLoading}
        error={error}
        count={rows.length}
        empty={t('admin.userRooms.empty')}
        onRetry={() => void mutate()}
        page={page}
        pageSize={ADMIN_PAGE_SIZE}
        total={data?.total ?? 0}
        onPageChange={setPage}
      >
        <RoomRows rooms={rows} viewer={{ id: me?.id ?? '', role: me?.role ?? Role.User }} staff={staff} testId="admin-user-room-list" />
      </ListState>
    </Modal>
  );
}
