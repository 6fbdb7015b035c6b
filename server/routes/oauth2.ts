/**
 * OAuth2 routes `/oauth2/...` (docs/contract.md §4.7): note they are outside `/api`. The two
 * `enabled` lists have no envelope. The browser-facing GET pages of v0.9.11 are not served: the web
 * client uses the POST routes.
 */
import type { FastifyInstance } from 'fastify';
import { OAuth2CallbackRequest, OAuth2StartRequest } from '@/lib/contract/requests';
import { decodeBody } from '../decode';
import { sendData, sendNoContent } from '../http/envelope';
import { requestOrigin, requireUser, type ServerContext } from '../http/guards';
import { enabledProviders, finishFlow, signupProviders, startFlow, unbindProvider } from '../rules/oauth2';
import type { TokenResponseFor } from './user';

export function registerOAuth2Routes(app: FastifyInstance, context: ServerContext, tokenResponse: TokenResponseFor): void {
  const services = { store: context.store, states: context.states, endpoints: context.endpoints };

  app.get('/oauth2/enabled', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send({ enabled: enabledProviders(await context.store.settings.get()) }),
  );

  app.get('/oauth2/enabled/signup', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send({ signupEnabled: signupProviders(await context.store.settings.get()) }),
  );

  app.post<{ Params: { type: string } }>('/oauth2/login/:type', async (request, reply) => {
    const { redirect } = decodeBody(OAuth2StartRequest, request.body ?? null);
    return sendData(reply, { url: await startFlow(services, request.params.type, redirect, requestOrigin(request)) });
  });

  app.post<{ Params: { type: string } }>('/oauth2/bind/:type', async (request, reply) => {
    const user = await requireUser(context, request);
    const { redirect } = decodeBody(OAuth2StartRequest, request.body ?? null);
    return sendData(reply, { url: await startFlow(services, request.params.type, redirect, requestOrigin(request), user) });
  });

  app.post<{ Params: { type: string } }>('/oauth2/unbind/:type', async (request, reply) => {
    const user = await requireUser(context, request);
    await unbindProvider(context.store, user, request.params.type);
    return sendNoContent(reply);
  });

  app.post<{ Params: { type: string } }>('/oauth2/callback/:type', async (request, reply) => {
    const { code, state } = decodeBody(OAuth2CallbackRequest, request.body);
    const result = await finishFlow(services, request.params.type, code, state, requestOrigin(request));
    reply.header('X-OAuth2-Type', result.kind);
    if (result.kind === 'bind') return sendData(reply, { type: 'bind', redirect: result.redirect });
    return sendData(reply, { type: 'auth', ...(await tokenResponse(result.user)), redirect: result.redirect });
  });
}
