/**
 * Site admin and root routes `/api/admin/...` (docs/contract.md §4.6): transport only. Each handler
 * runs the `admin` or `root` level (§3.4), calls the rule in ../rules/site-admin.ts and applies its
 * effects to the open sockets. The vendor routes are not here: the companion server has no vendor
 * backends (§4.8), so they answer 404 like any unknown route.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod/mini';
import { AddUserRequest, AnyObjectRequest, IdPasswordRequest, IdRequest, IdUsernameRequest, TestMailRequest, type Field } from '@/lib/contract/requests';
import { decodeBody } from '../decode';
import { sendData, sendNoContent } from '../http/envelope';
import { requireSiteAdmin, type ServerContext } from '../http/guards';
import { parseDesc, parsePaging, parseSearch, parseSort, queryOr, queryValue } from '../http/query';
import { mailLanguage, testMail } from '../mail/texts';
import { deliver } from '../rules/email';
import type { UserRecord } from '../db';
import {
  addUser,
  approveRoom,
  approveUser,
  banRoom,
  banUser,
  deleteAnyRoom,
  deleteUser,
  listAllRooms,
  listUsers,
  makeAdmin,
  removeAdmin,
  setAnyRoomPassword,
  setUsername,
  setUserPassword,
  settingsByGroup,
  type ConvertTools,
  testMailAddress,
  unbanRoom,
  unbanUser,
  updateSettings,
  type AdminRoomListQuery,
  type SiteEffects,
} from '../rules/site-admin';

/** `sort` of the admin lists: `name` or `createdAt`; the reference client's `username` means `name`. */
function parseAdminSort(query: unknown): 'name' | 'createdAt' {
  const sort = queryOr(query, 'sort', 'name');
  return sort === 'username' ? 'name' : parseSort(query, ['name', 'createdAt'] as const, 'name');
}

/** The room list query of §4.6; the reference client's `roomId` search means `id`. */
function parseAdminRoomQuery(query: unknown): AdminRoomListQuery {
  const search = queryOr(query, 'search', 'all') === 'roomId' ? 'id' : parseSearch(query, ['name', 'creator', 'creatorId', 'id'] as const);
  return {
    ...parsePaging(query),
    status: queryOr(query, 'status', ''),
    keyword: queryOr(query, 'keyword', ''),
    search,
    sort: parseAdminSort(query),
    desc: parseDesc(query),
  };
}

export function registerAdminRoutes(app: FastifyInstance, context: ServerContext): void {
  const { store, hubs } = context;

  function apply(effects: SiteEffects | void): void {
    for (const roomId of effects?.closeRooms ?? []) hubs.closeRoom(roomId);
    for (const userId of effects?.kickUsers ?? []) hubs.kickUserEverywhere(userId);
  }

  /** A POST action with an `{id, …}` body decoded with `schema`: guard, rule, effects, 204. */
  function action<Body extends { id: string }>(
    path: string,
    level: 'admin' | 'root',
    schema: Field<Body> | z.ZodMiniType<Body, unknown>,
    run: (caller: UserRecord, id: string, body: Body) => SiteEffects | void | Promise<SiteEffects | void>,
  ): void {
    app.post(path, async (request: FastifyRequest, reply) => {
      const caller = await requireSiteAdmin(context, request, level);
      const body = decodeBody(schema, request.body);
      apply(await run(caller, body.id, body));
      return sendNoContent(reply);
    });
  }

  // Settings
  /** What this machine converts with: ffmpeg's version and the hardware encoders that work (tried once). */
  const convertTools = async (): Promise<ConvertTools> => {
    const converter = context.converter;
    return { ffmpeg: (await converter?.version()) ?? '', hardware: (await converter?.hardwareEncoders()) ?? [] };
  };

  app.get('/api/admin/settings', async (request, reply) => {
    await requireSiteAdmin(context, request);
    return sendData(reply, await settingsByGroup(store, await convertTools()));
  });
  app.get('/api/admin/settings/:group', async (request, reply) => {
    await requireSiteAdmin(context, request);
    return sendData(reply, await settingsByGroup(store, await convertTools(), (request.params as { group: string }).group));
  });
  app.post('/api/admin/settings', async (request, reply) => {
    await requireSiteAdmin(context, request);
    await updateSettings(store, decodeBody(AnyObjectRequest, request.body), (await convertTools()).hardware);
    return sendNoContent(reply);
  });

  app.post('/api/admin/email/test', async (request, reply) => {
    const caller = await requireSiteAdmin(context, request);
    const to = testMailAddress(caller, decodeBody(TestMailRequest, request.body).email);
    await deliver(context, await store.settings.get(), testMail(mailLanguage(request.headers['accept-language']), to, caller.username));
    return sendNoContent(reply);
  });

  // Users
  app.get('/api/admin/user/list', async (request, reply) => {
    await requireSiteAdmin(context, request);
    const { query } = request;
    return sendData(
      reply,
      await listUsers(store, {
        ...parsePaging(query),
        role: queryOr(query, 'role', ''),
        keyword: queryOr(query, 'keyword', ''),
        search: queryOr(query, 'search', 'all') === 'roomId' ? 'id' : parseSearch(query, ['name', 'id'] as const),
        sort: parseAdminSort(query),
        desc: parseDesc(query),
      }),
    );
  });
  app.get('/api/admin/user/rooms', async (request, reply) => {
    await requireSiteAdmin(context, request);
    const query = { ...parseAdminRoomQuery(request.query), creatorId: queryValue(request.query, 'id') ?? '' };
    return sendData(reply, await listAllRooms(store, query, hubs.viewerCount));
  });
  app.post('/api/admin/user/add', async (request, reply) => {
    const caller = await requireSiteAdmin(context, request);
    const { username, password, role } = decodeBody(AddUserRequest, request.body);
    await addUser(store, caller, username, password, role);
    return sendNoContent(reply);
  });
  action('/api/admin/user/delete', 'admin', IdRequest, (caller, id) => deleteUser(store, caller, id));
  action('/api/admin/user/ban', 'admin', IdRequest, (caller, id) => banUser(store, caller, id));
  action('/api/admin/user/unban', 'admin', IdRequest, (_caller, id) => unbanUser(store, id));
  action('/api/admin/user/approve', 'admin', IdRequest, (_caller, id) => approveUser(store, id));
  action('/api/admin/user/password', 'admin', IdPasswordRequest, (caller, id, body) => setUserPassword(store, caller, id, body.password));
  action('/api/admin/user/username', 'admin', IdUsernameRequest, (caller, id, body) => setUsername(store, caller, id, body.username));

  // Rooms
  app.get('/api/admin/room/list', async (request, reply) => {
    await requireSiteAdmin(context, request);
    return sendData(reply, await listAllRooms(store, parseAdminRoomQuery(request.query), hubs.viewerCount));
  });
  action('/api/admin/room/approve', 'admin', IdRequest, (_caller, id) => approveRoom(store, id));
  action('/api/admin/room/ban', 'admin', IdRequest, (caller, id) => banRoom(store, caller, id));
  action('/api/admin/room/unban', 'admin', IdRequest, (_caller, id) => unbanRoom(store, id));
  action('/api/admin/room/delete', 'admin', IdRequest, (caller, id) => deleteAnyRoom(store, caller, id));
  action('/api/admin/room/password', 'admin', IdPasswordRequest, (_caller, id, body) => setAnyRoomPassword(store, id, body.password));

  // Administrators (root)
  action('/api/admin/admin/add', 'root', IdRequest, (caller, id) => makeAdmin(store, caller, id));
  action('/api/admin/admin/delete', 'root', IdRequest, (caller, id) => removeAdmin(store, caller, id));
}
