/**
 * Vendor routes `/api/vendor/...` (docs/contract.md §4.8, shapes in docs/vendors.md), all at the
 * `user` level (a signed-in, non-guest user): which backends a vendor has, and binding, browsing and
 * unbinding AList and Emby/Jellyfin accounts; binding a bilibili account (QR code, or SMS after
 * bilibili's Geetest captcha) and parsing bilibili links (docs/vendors.md "bilibili").
 */
import type { FastifyInstance } from 'fastify';
import {
  AlistListRequest,
  AlistLoginRequest,
  BilibiliParseRequest,
  BilibiliQrRequest,
  BilibiliSmsLoginRequest,
  BilibiliSmsSendRequest,
  EmbyListRequest,
  EmbyLoginRequest,
  ServerIdRequest,
} from '@/lib/contract/requests';
import { decodeBody } from '../decode';
import { badRequest } from '../errors';
import { requireUser, type ServerContext } from '../http/guards';
import { sendData, sendNoContent } from '../http/envelope';
import { parsePaging, queryOr } from '../http/query';
import { alistPasswordHash } from '../vendors/alist';
import { parseBilibiliLink } from '../vendors/bilibili-parse';

/** The vendors of v0.9.11 and the backends this server has for each ("" is the built-in client). */
const BACKENDS: Readonly<Record<string, readonly string[]>> = { alist: [''], emby: [''], bilibili: [''] };

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

  // bilibili (docs/vendors.md "bilibili"): v0.9.11's routes and texts.
  const { bilibili } = context;
  const required = (value: string, name: string) => {
    if (!value) throw badRequest(`${name} is empty`);
  };

  app.get('/api/vendor/bilibili/login/qr', async (request, reply) => {
    await requireUser(context, request);
    return sendData(reply, await bilibili.client.newQr());
  });

  app.post('/api/vendor/bilibili/login/qr', async (request, reply) => {
    const user = await requireUser(context, request);
    const { key } = decodeBody(BilibiliQrRequest, request.body);
    required(key, 'key');
    const { status, cookies } = await bilibili.client.pollQr(key);
    if (cookies) await bilibili.bind(user.id, cookies, Date.now());
    return sendData(reply, { status });
  });

  app.get('/api/vendor/bilibili/login/captcha', async (request, reply) => {
    await requireUser(context, request);
    return sendData(reply, await bilibili.client.captcha());
  });

  app.post('/api/vendor/bilibili/login/sms/send', async (request, reply) => {
    await requireUser(context, request);
    const body = decodeBody(BilibiliSmsSendRequest, request.body);
    for (const name of ['token', 'challenge', 'validate', 'telephone'] as const) required(body[name], name);
    return sendData(reply, { captchaKey: await bilibili.client.sendSms(body) });
  });

  app.post('/api/vendor/bilibili/login/sms/login', async (request, reply) => {
    const user = await requireUser(context, request);
    const body = decodeBody(BilibiliSmsLoginRequest, request.body);
    for (const name of ['telephone', 'captchaKey', 'code'] as const) required(body[name], name);
    await bilibili.bind(user.id, await bilibili.client.smsLogin(body), Date.now());
    return sendNoContent(reply);
  });

  app.post('/api/vendor/bilibili/parse', async (request, reply) => {
    const user = await requireUser(context, request);
    const { url } = decodeBody(BilibiliParseRequest, request.body);
    required(url, 'url');
    const backend = queryOr(request.query, 'backend', '') || queryOr(request.query, 'vendor', '');
    if (backend) throw badRequest(`backend ${backend} not found`);
    return sendData(reply, await parseBilibiliLink(bilibili.client, url, (await bilibili.cookies(user.id)) ?? {}));
  });

  app.get('/api/vendor/bilibili/me', async (request, reply) => {
    const user = await requireUser(context, request);
    return sendData(reply, await bilibili.me(user.id));
  });

  app.post('/api/vendor/bilibili/logout', async (request, reply) => {
    const user = await requireUser(context, request);
    await bilibili.unbind(user.id);
    return sendNoContent(reply);
  });
}
