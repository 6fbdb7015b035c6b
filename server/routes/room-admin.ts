/**
 * Room administration routes `/api/room/admin/...` (docs/contract.md §4.4): transport only. Each
 * handler runs its middleware level (`room-admin` or `room-creator`, §3.4), calls the rule in
 * ../rules/room-admin.ts and applies the effects to the room's sockets (§6.5).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod/mini';
import { AdminPermissionsRequest, AnyObjectRequest, IdRequest, MemberPermissionsRequest, PasswordRequest, type Field } from '@/lib/contract/requests';
import { decodeBody } from '../decode';
import { sendData, sendNoContent } from '../http/envelope';
import { requireRoom, type ServerContext } from '../http/guards';
import { parseDesc, parsePaging, parseSearch, parseSort, queryOr, queryValue } from '../http/query';
import { MemberStatus } from '@/lib/contract/roles';
import type { RoomAccess, RoomLevel } from '../rules/room-access';
import {
  approveMember,
  banMember,
  clearChatHistory,
  deleteMember,
  deleteRoom,
  parseSettingsPatch,
  setAdminPermissions,
  setAdminRole,
  setMemberPermissions,
  setMemberRole,
  setRoomPassword,
  setRoomSettings,
  unbanMember,
  type AdminEffects,
} from '../rules/room-admin';
import { listMembers, type MemberListQuery } from '../rules/rooms';

const MEMBER_ROLES = ['', 'admin', 'member', 'creator'] as const;

/** `status` of the admin member list: absent means active; "" or any other value lists every status. */
const MEMBER_STATUS_FILTER: Record<string, number> = {
  active: MemberStatus.Active,
  pending: MemberStatus.Pending,
  banned: MemberStatus.Banned,
};

/** Parses the member list query of §4.3 (`/api/room/members` and the admin list). */
export function parseMemberListQuery(query: unknown): MemberListQuery {
  const paging = parsePaging(query);
  const role = queryOr(query, 'role', '');
  return {
    ...paging,
    role: (MEMBER_ROLES as readonly string[]).includes(role) ? (role as MemberListQuery['role']) : '',
    keyword: queryOr(query, 'keyword', ''),
    search: parseSearch(query, ['name', 'id'] as const),
    sort: parseSort(query, ['join', 'name'] as const, 'name'),
    desc: parseDesc(query),
  };
}

export function registerRoomAdminRoutes(app: FastifyInstance, context: ServerContext): void {
  const { store, hubs } = context;

  /** Applies what an action changed to the room's open sockets. */
  function apply(access: RoomAccess, effects: AdminEffects[]): void {
    const sender = { userId: access.user.id, username: access.user.username };
    for (const effect of effects) {
      if (effect.closeRoom) hubs.closeRoom(access.room.id);
      if (effect.kickUser) hubs.kickUser(access.room.id, effect.kickUser);
      if (effect.myStatus) hubs.notifyMyStatus(access.room.id, effect.myStatus === '*' ? null : effect.myStatus, sender);
    }
  }

  /** A POST member action: guard, the `{id, …}` body decoded with `schema`, rule, effects, 204. */
  function memberAction<Body extends { id: string }>(
    path: string,
    level: RoomLevel,
    schema: Field<Body> | z.ZodMiniType<Body, unknown>,
    action: (access: RoomAccess, id: string, body: Body) => Promise<AdminEffects[]>,
  ): void {
    app.post(path, async (request: FastifyRequest, reply) => {
      const access = await requireRoom(context, request, level);
      const body = decodeBody(schema, request.body);
      apply(access, await action(access, body.id, body));
      return sendNoContent(reply);
    });
  }

  app.get('/api/room/admin/settings', async (request, reply) =>
    sendData(reply, (await requireRoom(context, request, 'room-admin')).settings),
  );

  app.post('/api/room/admin/settings', async (request, reply) => {
    const access = await requireRoom(context, request, 'room-admin');
    const patch = parseSettingsPatch(decodeBody(AnyObjectRequest, request.body));
    apply(access, await setRoomSettings(store, access, patch));
    return sendNoContent(reply);
  });

  app.post('/api/room/admin/delete', async (request, reply) => {
    const access = await requireRoom(context, request, 'room-admin');
    apply(access, await deleteRoom(store, access));
    return sendNoContent(reply);
  });

  app.post('/api/room/admin/pwd', async (request, reply) => {
    const access = await requireRoom(context, request, 'room-admin');
    const { password } = decodeBody(PasswordRequest, request.body);
    apply(access, await setRoomPassword(store, access, password));
    return sendNoContent(reply);
  });

  app.post('/api/room/admin/chat/clear', async (request, reply) => {
    await clearChatHistory(store, await requireRoom(context, request, 'room-admin'));
    return sendNoContent(reply);
  });

  app.get('/api/room/admin/members', async (request, reply) => {
    const access = await requireRoom(context, request, 'room-admin');
    const query = parseMemberListQuery(request.query);
    const status = queryValue(request.query, 'status') ?? 'active';
    return sendData(
      reply,
      await listMembers(store, access, { ...query, status: MEMBER_STATUS_FILTER[status] }, (userId) => hubs.onlineCount(access.room.id, userId)),
    );
  });

  memberAction('/api/room/admin/members/approve', 'room-admin', IdRequest, (access, id) => approveMember(store, access, id));
  memberAction('/api/room/admin/members/delete', 'room-admin', IdRequest, (access, id) => deleteMember(store, access, id));
  memberAction('/api/room/admin/members/ban', 'room-admin', IdRequest, (access, id) => banMember(store, access, id));
  memberAction('/api/room/admin/members/unban', 'room-admin', IdRequest, (access, id) => unbanMember(store, access, id));
  memberAction('/api/room/admin/members/member', 'room-creator', MemberPermissionsRequest, (access, id, body) =>
    setMemberRole(store, access, id, body.permissions),
  );
  memberAction('/api/room/admin/members/member/permissions', 'room-creator', MemberPermissionsRequest, (access, id, body) =>
    setMemberPermissions(store, access, id, body.permissions),
  );
  memberAction('/api/room/admin/members/admin', 'room-creator', AdminPermissionsRequest, (access, id, body) =>
    setAdminRole(store, access, id, body.adminPermissions),
  );
  memberAction('/api/room/admin/members/admin/permissions', 'room-creator', AdminPermissionsRequest, (access, id, body) =>
    setAdminPermissions(store, access, id, body.adminPermissions),
  );
}
