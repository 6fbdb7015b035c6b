/**
 * Vendor routes `/api/vendor/...` (docs/contract.md §4.8, shapes in docs/vendors.md), all at the
 * `user` level (a signed-in, non-guest user): which backends a vendor has, and binding, browsing and
 * unbinding AList and Emby/Jellyfin accounts. bilibili is not served yet: its backends list is empty
 * and its routes are absent (404), which the client shows as "not on this server".
 */
import type { FastifyInstance } from 'fastify';
import { AlistListRequest, AlistLoginRequest, EmbyListRequest, EmbyLoginRequest, ServerIdRequest } from '@/lib/contract/requests';
import { decodeBody } from '../decode';
import { badRequest } from '../errors';
import { requireUser, type ServerContext } from '../http/guards';
import { sendData, sendNoContent } from '../http/envelope';
import { parsePaging, queryOr } from '../http/query';
import { alistPasswordHash } from '../vendors/alist';

/** The vendors of v0.9.11 and the backends this server has for each ("" is the built-in client). */
const BACKENDS: Readonly<Record<string, readonly string[]>> = { alist: [''], emby: [''], bilibili: [] };

export function registerVendorRoutes(app: FastifyInstance, context: ServerContext): void {
  const { alist, emby } = context;

  app.get('/api/vendor/backends/:vendor', async (request, reply) => {
    await requireUser(context, request);
    const backends = BACKENDS[(request.params as { vendor: string }).vendor];
    if (!backends) throw badRequest('invalid vendor name');
    return sendData(reply, backends);
  });

  app.post('/api/vendor/alist/login', async (request, reply) => {
    const user = await requireUser(context, request);
    const body = decodeBody(AlistLoginRequest, request.body);
    if (body.password && body.hashedPassword) throw badRequest("password and hashedPassword can't be both set");
    const hashed = body.password ? alistPasswordHash(body.password) : body.hashedPassword;
    if (body.username && !hashed) throw badRequest('password is required');
    await alist.bind(user.id, body.host, body.username, hashed, Date.now());
    return sendNoContent(reply);
  });

  // The same for both vendors: unbinding, the bound servers, and the user on one.
  for (const [vendor, accounts] of [
    ['alist', alist],
    ['emby', emby],
  ] as const) {
    app.post(`/api/vendor/${vendor}/logout`, async (request, reply) => {
      const user = await requireUser(context, request);
      const { serverId } = decodeBody(ServerIdRequest, request.body);
      if (!serverId) throw badRequest('serverId is required');
      await accounts.unbind(user.id, serverId);
      return sendNoContent(reply);
    });

    app.get(`/api/vendor/${vendor}/binds`, async (request, reply) => {
      const user = await requireUser(context, request);
      return sendData(reply, await accounts.binds(user.id));
    });

    // v0.9.11 reads `serverID`; its own web client sends `serverId` (docs/vendors.md): both are taken.
    app.get(`/api/vendor/${vendor}/me`, async (request, reply) => {
      const user = await requireUser(context, request);
      const serverId = queryOr(request.query, 'serverID', '') || queryOr(request.query, 'serverId', '');
      if (!serverId) throw badRequest('serverID is required');
      return sendData(reply, { isLogin: true, info: await accounts.me(user.id, serverId) });
    });
  }

  app.post('/api/vendor/alist/list', async (request, reply) => {
    const user = await requireUser(context, request);
    const body = decodeBody(AlistListRequest, request.body);
    const { page, max } = parsePaging(request.query);
    return sendData(reply, await alist.browse(user.id, { ...body, page, max }));
  });

  app.post('/api/vendor/emby/login', async (request, reply) => {
    const user = await requireUser(context, request);
    const body = decodeBody(EmbyLoginRequest, request.body);
    if (!body.username) throw badRequest('username is required');
    await emby.bind(user.id, body.host, body.username, body.password, Date.now());
    return sendNoContent(reply);
  });

  app.post('/api/vendor/emby/list', async (request, reply) => {
    const user = await requireUser(context, request);
    const body = decodeBody(EmbyListRequest, request.body);
    const { page, max } = parsePaging(request.query);
    return sendData(reply, await emby.browse(user.id, { ...body, page, max }));
  });
}
