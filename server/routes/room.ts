/**
 * Room routes `/api/room/...` (docs/contract.md §4.3). The WebSocket `/api/room/ws` is served by
 * `./ws` on the HTTP server's upgrade event.
 */
import type { FastifyInstance } from 'fastify';
import { CreateRoomRequest, PasswordRequest, RoomLoginRequest } from '@/lib/contract/requests';
import { decodeBody } from '../decode';
import { sendData } from '../http/envelope';
import { requireRoom, requireUser, roomIdOf, type ServerContext } from '../http/guards';
import { parsePaging } from '../http/query';
import { parseMemberListQuery } from './room-admin';
import {
  checkRoom,
  checkRoomPassword,
  createRoom,
  hotRooms,
  joinedRoom,
  listMembers,
  listRooms,
  logInRoom,
  roomInfo,
  roomMe,
} from '../rules/rooms';
import { parseRoomListQuery } from './user';
import { iceServersFor } from '../rules/webrtc';

export function registerRoomRoutes(app: FastifyInstance, context: ServerContext): void {
  const { store, hubs } = context;

  app.get('/api/room/check', async (request, reply) =>
    sendData(reply, await checkRoom(store, roomIdOf(request), hubs.viewerCount)),
  );

  app.get('/api/room/hot', async (request, reply) => {
    const paging = parsePaging(request.query);
    return sendData(reply, await hotRooms(store, hubs.liveRoomIds(), paging, hubs.viewerCount));
  });

  app.get('/api/room/list', async (request, reply) => {
    const query = parseRoomListQuery(request.query, ['name', 'creator', 'id']);
    return sendData(reply, await listRooms(store, query, hubs.viewerCount));
  });

  app.post('/api/room/create', async (request, reply) => {
    const user = await requireUser(context, request);
    const body = decodeBody(CreateRoomRequest, request.body);
    const created = await createRoom(store, user, { roomName: body.roomName, password: body.password, hidden: body.settings?.hidden ?? false });
    return sendData(reply, created, 201);
  });

  app.post('/api/room/login', async (request, reply) => {
    const user = await requireUser(context, request);
    const { roomId, password } = decodeBody(RoomLoginRequest, request.body);
    return sendData(reply, await logInRoom(store, user, roomId, password));
  });

  app.get('/api/room/joined', async (request, reply) => {
    const user = await requireUser(context, request);
    return sendData(reply, await joinedRoom(store, user, roomIdOf(request), hubs.viewerCount));
  });

  app.get('/api/room/me', async (request, reply) => sendData(reply, roomMe(await requireRoom(context, request))));

  // Not in v0.9.11: voice chat's STUN/TURN servers, for those who may use voice (docs/voice.md).
  app.get('/api/room/webrtc/iceServers', async (request, reply) =>
    sendData(reply, iceServersFor(await requireRoom(context, request), context.ice, Date.now())),
  );

  app.get('/api/room/info', async (request, reply) =>
    sendData(reply, await roomInfo(store, await requireRoom(context, request))),
  );

  app.get('/api/room/settings', async (request, reply) =>
    sendData(reply, (await requireRoom(context, request, 'room-noguest')).settings),
  );

  app.get('/api/room/members', async (request, reply) => {
    const access = await requireRoom(context, request, 'room-noguest');
    const query = parseMemberListQuery(request.query);
    return sendData(reply, await listMembers(store, access, query, (userId) => hubs.onlineCount(access.room.id, userId)));
  });

  app.post('/api/room/pwd/check', async (request, reply) => {
    const access = await requireRoom(context, request, 'room-noguest');
    const { password } = decodeBody(PasswordRequest, request.body);
    return sendData(reply, await checkRoomPassword(access, password));
  });
}
