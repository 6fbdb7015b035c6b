/**
 * User routes `/api/user/...` (docs/contract.md §4.2). Transport only: parse, guard, call the
 * rule, answer with the envelope.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenResponse } from '@/lib/contract/types';
import { RoomStatus } from '@/lib/contract/roles';
import type { UserRecord } from '../db';
import { CredentialsRequest, EmailCodeRequest, EmailRequest, IdRequest, PasswordRequest, UsernameRequest } from '@/lib/contract/requests';
import { decodeBody } from '../decode';
import { sendData, sendNoContent } from '../http/envelope';
import { requireUser, roomIdOf, type ServerContext } from '../http/guards';
import { parseDesc, parsePaging, parseSearch, parseSort, queryOr, queryValue } from '../http/query';
import { deleteOwnRoom, exitRoom, joinedRoom, listCreatedRooms, listJoinedRooms, type RoomListQuery } from '../rules/rooms';
import { changePassword, logIn, rename, signUp, tokenRefusal, userInfo } from '../rules/users';
import type { TokenService } from '../auth';
import { mailLanguage } from '../mail/texts';
import { bindEmail, resetPassword, sendBindCode, sendRetrieveCode, sendSignupCode, signUpWithEmail, type CaptchaRequest } from '../rules/email';
import { providerBindings } from '../rules/oauth2';

/** Parses the shared room-list query (§4 conventions): paging, keyword, search, sort, order. */
export function parseRoomListQuery(query: unknown, searches: readonly ('name' | 'creator' | 'id')[]): RoomListQuery {
  const paging = parsePaging(query);
  return {
    ...paging,
    keyword: queryOr(query, 'keyword', ''),
    search: parseSearch(query, searches),
    sort: parseSort(query, ['name', 'createdAt'] as const, 'name'),
    desc: parseDesc(query),
  };
}

const STATUS_FILTER: Record<string, number> = {
  active: RoomStatus.Active,
  pending: RoomStatus.Pending,
  banned: RoomStatus.Banned,
};

/** `{token, role}`, or `{message, role}` without a token for banned and pending users (§3.1). */
export type TokenResponseFor = (user: UserRecord) => Promise<TokenResponse>;

/** The token answer of every route that signs a user in (§3.1). */
export function tokenResponder(tokens: TokenService): TokenResponseFor {
  return async (user) => {
    const refusal = tokenRefusal(user);
    if (refusal) return { message: refusal, role: user.role };
    return { token: await tokens.sign(user), role: user.role };
  };
}

function captchaRequest(body: unknown): CaptchaRequest {
  return decodeBody(EmailCodeRequest, body);
}

export function registerUserRoutes(app: FastifyInstance, context: ServerContext, tokenResponse: TokenResponseFor): void {
  const { store, hubs } = context;
  const email = { store, captchas: context.captchas, codes: context.codes, mailer: context.mailer };
  const language = (request: FastifyRequest) => mailLanguage(request.headers['accept-language']);

  app.get('/api/user/signup/email/captcha', async (_request, reply) => sendData(reply, await context.captchas.create()));

  app.post('/api/user/signup/email/captcha', async (request, reply) => {
    await sendSignupCode(email, captchaRequest(request.body), language(request));
    return sendNoContent(reply);
  });

  app.post('/api/user/signup/email', async (request, reply) => {
    const body = decodeBody(EmailRequest, request.body);
    const user = await signUpWithEmail(email, body.email, body.captcha, body.password);
    return sendData(reply, await tokenResponse(user));
  });

  app.get('/api/user/retrieve/email/captcha', async (_request, reply) => sendData(reply, await context.captchas.create()));

  app.post('/api/user/retrieve/email/captcha', async (request, reply) => {
    await sendRetrieveCode(email, captchaRequest(request.body), language(request), request.headers.host ?? 'localhost');
    return sendNoContent(reply);
  });

  app.post('/api/user/retrieve/email', async (request, reply) => {
    const body = decodeBody(EmailRequest, request.body);
    const user = await resetPassword(email, body.email, body.captcha, body.password);
    hubs.kickUserEverywhere(user.id);
    return sendData(reply, await tokenResponse(user));
  });

  app.get('/api/user/bind/email/captcha', async (request, reply) => {
    await requireUser(context, request);
    return sendData(reply, await context.captchas.create());
  });

  app.post('/api/user/bind/email/captcha', async (request, reply) => {
    const user = await requireUser(context, request);
    await sendBindCode(email, user, captchaRequest(request.body), language(request));
    return sendNoContent(reply);
  });

  app.post('/api/user/bind/email', async (request, reply) => {
    const user = await requireUser(context, request);
    const body = decodeBody(EmailRequest, request.body);
    await bindEmail(email, user, body.email, body.captcha);
    return sendNoContent(reply);
  });

  app.post('/api/user/unbind/email', async (request, reply) => {
    const user = await requireUser(context, request);
    await store.users.updateEmail(user.id, '');
    return sendNoContent(reply);
  });

  // No envelope (§2.1, §9 quirk 3).
  app.get('/api/user/providers', async (request, reply) => {
    const user = await requireUser(context, request);
    return reply.type('application/json; charset=utf-8').send(await providerBindings(store, user));
  });

  app.post('/api/user/signup', async (request, reply) => {
    const body = decodeBody(CredentialsRequest, request.body);
    const user = await signUp(store, body.username, body.password);
    return sendData(reply, await tokenResponse(user));
  });

  app.post('/api/user/login', async (request, reply) => {
    const body = decodeBody(CredentialsRequest, request.body);
    const user = await logIn(store, body.username, body.email, body.password);
    return sendData(reply, await tokenResponse(user));
  });

  app.get('/api/user/me', async (request, reply) => {
    const user = await requireUser(context, request);
    return sendData(reply, userInfo(user));
  });

  app.get('/api/user/rooms', async (request, reply) => {
    const user = await requireUser(context, request);
    const query = parseRoomListQuery(request.query, ['name', 'id']);
    const status = queryValue(request.query, 'status') ?? 'active';
    return sendData(reply, await listCreatedRooms(store, user, STATUS_FILTER[status], query, hubs.viewerCount));
  });

  app.get('/api/user/rooms/joined', async (request, reply) => {
    const user = await requireUser(context, request);
    const query = parseRoomListQuery(request.query, ['name', 'id']);
    // Without `status` (v0.9.11's query) every joined room is listed.
    const status = queryValue(request.query, 'status');
    return sendData(reply, await listJoinedRooms(store, user, query, hubs.viewerCount, status === undefined ? undefined : STATUS_FILTER[status]));
  });

  app.get('/api/user/room/joined', async (request: FastifyRequest, reply) => {
    const user = await requireUser(context, request);
    return sendData(reply, await joinedRoom(store, user, roomIdOf(request), hubs.viewerCount));
  });

  app.post('/api/user/username', async (request, reply) => {
    const user = await requireUser(context, request);
    await rename(store, user, decodeBody(UsernameRequest, request.body).username);
    return sendNoContent(reply);
  });

  app.post('/api/user/password', async (request, reply) => {
    const user = await requireUser(context, request);
    const updated = await changePassword(store, user, decodeBody(PasswordRequest, request.body).password);
    // Older tokens no longer authenticate (§3.1 `uv`): sockets opened with them close too; the
    // client reconnects with the new token.
    hubs.kickUserEverywhere(user.id);
    return sendData(reply, await tokenResponse(updated));
  });

  // Deletes the caller's account (v0.9.11 semantics; our client only calls it after confirmation, §11 a).
  app.post('/api/user/logout', async (request, reply) => {
    const user = await requireUser(context, request);
    const ownRooms = (await store.rooms.list({ creatorId: user.id, sort: 'name', desc: false, limit: -1, offset: 0 })).rows;
    await store.users.delete(user.id);
    for (const room of ownRooms) hubs.closeRoom(room.id);
    hubs.kickUserEverywhere(user.id);
    return sendNoContent(reply);
  });

  app.post('/api/user/room/delete', async (request, reply) => {
    const user = await requireUser(context, request);
    const roomId = decodeBody(IdRequest, request.body).id;
    await deleteOwnRoom(store, user, roomId);
    hubs.closeRoom(roomId);
    return sendNoContent(reply);
  });

  app.post('/api/user/room/exit', async (request, reply) => {
    const user = await requireUser(context, request);
    const roomId = decodeBody(IdRequest, request.body).id;
    await exitRoom(store, user, roomId);
    hubs.kickUser(roomId, user.id);
    return sendNoContent(reply);
  });
}
