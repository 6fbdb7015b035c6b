/**
 * OAuth2 sign-in, sign-up and binding (docs/contract.md §4.7): the enabled-provider lists, the
 * server-side state (16 random letters, 5 minutes, single use), and what a callback does: sign in a
 * linked account, create an account for an unknown one (`#NNNN` on a taken name; Pending under
 * review), or bind the provider account to the user who started the flow.
 */
import crypto from 'node:crypto';
import { isOAuth2Provider, OAUTH2_PROVIDERS, type OAuth2Provider } from '@/lib/contract/oauth2';
import { Role } from '@/lib/contract/roles';
import { validateUsername } from '@/lib/contract/validation';
import type { SiteSettings, Store, UserRecord } from '../db';
import { oauth2Config } from '../db/settings';
import { isUniqueViolation } from '../db/users';
import type { SecretStore } from '../cluster/secret-store';
import { badRequest } from '../errors';
import { authorizationUrl, exchangeCode } from '../oauth2/client';
import { PROVIDER_SPECS, type ProviderEndpoints, type ProviderProfile } from '../oauth2/providers';
import { hashPassword } from '../passwords';
import { insertUserWithFreeName, newId } from './users';

/** Lifetime of a state, ms (§4.7). */
export const OAUTH2_STATE_TTL_MS = 5 * 60 * 1000;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** What a state remembers: the provider, the flow, the caller (bind) and where the client goes next. */
interface PendingFlow {
  provider: OAuth2Provider;
  kind: 'auth' | 'bind';
  userId: string;
  redirect: string;
}

/** Endpoint overrides per provider (tests point one provider at a local authorization server). */
export type EndpointOverrides = Partial<Record<OAuth2Provider, ProviderEndpoints>>;

/**
 * States of flows in progress, in a SecretStore (../cluster/secret-store.ts: this process, or Redis
 * shared by every instance, so that a flow started on one instance can finish on another).
 */
export class OAuth2States {
  constructor(private readonly secrets: SecretStore) {}

  /** A new state for `flow`, valid for OAUTH2_STATE_TTL_MS. */
  async create(flow: PendingFlow): Promise<string> {
    let state = '';
    for (let i = 0; i < 16; i++) state += LETTERS[crypto.randomInt(LETTERS.length)];
    await this.secrets.set(`oauth2:${state}`, JSON.stringify(flow), OAUTH2_STATE_TTL_MS);
    return state;
  }

  /** Loads and deletes `state`; null when unknown, expired or already taken. */
  async take(state: string): Promise<PendingFlow | null> {
    const text = await this.secrets.take(`oauth2:${state}`);
    return text === null ? null : (JSON.parse(text) as PendingFlow);
  }
}

/** `GET /oauth2/enabled`: enabled providers, natural-sorted. */
export function enabledProviders(settings: SiteSettings): OAuth2Provider[] {
  return OAUTH2_PROVIDERS.filter((provider) => oauth2Config(settings, provider).enabled).sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }),
  );
}

/** `GET /oauth2/enabled/signup`: enabled providers that allow sign-up. */
export function signupProviders(settings: SiteSettings): OAuth2Provider[] {
  return enabledProviders(settings).filter((provider) => !oauth2Config(settings, provider).disableSignup);
}

/** Everything the flows need. */
export interface OAuth2Services {
  store: Store;
  states: OAuth2States;
  endpoints: EndpointOverrides;
}

function enabledProvider(settings: SiteSettings, name: string): OAuth2Provider {
  if (!isOAuth2Provider(name)) throw badRequest('invalid oauth2 provider');
  if (!oauth2Config(settings, name).enabled) throw badRequest('oauth2 provider not enabled');
  return name;
}

function clientConfig(settings: SiteSettings, provider: OAuth2Provider, origin: string) {
  const config = oauth2Config(settings, provider);
  const base = settings.host ? settings.host.replace(/\/+$/, '') : origin;
  return {
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUrl: config.redirectUrl || `${base}/web/oauth2/callback/${provider}`,
  };
}

const endpointsOf = (services: OAuth2Services, provider: OAuth2Provider) =>
  services.endpoints[provider] ?? PROVIDER_SPECS[provider].endpoints;

/**
 * `POST /oauth2/login/:type {redirect}` and `POST /oauth2/bind/:type {redirect}` (bind: `user` set):
 * the provider's authorization URL with a fresh state. `origin` (`http://<Host>`) builds the default
 * redirect URL when `oauth2_<p>_redirect_url` is empty. Errors: 400 `invalid oauth2 provider`,
 * `oauth2 provider not enabled`.
 */
export async function startFlow(services: OAuth2Services, name: string, redirect: string, origin: string, user?: UserRecord): Promise<string> {
  const settings = await services.store.settings.get();
  const provider = enabledProvider(settings, name);
  const state = await services.states.create({ provider, kind: user ? 'bind' : 'auth', userId: user?.id ?? '', redirect });
  return authorizationUrl(PROVIDER_SPECS[provider], endpointsOf(services, provider), clientConfig(settings, provider, origin), state);
}

/** The outcome of a callback: the user to sign in (auth) or the user who bound the account (bind). */
export interface CallbackResult {
  kind: 'auth' | 'bind';
  user: UserRecord;
  redirect: string;
}

/** A username the contract accepts, from the provider's name (else `<provider>_<id>`). */
function usernameFrom(provider: OAuth2Provider, profile: ProviderProfile): string {
  const wanted = profile.username.trim();
  if (wanted && !validateUsername(wanted) && Buffer.byteLength(wanted) <= 27) return wanted;
  return `${provider}_${profile.id}`.slice(0, 27);
}

/**
 * `POST /oauth2/callback/:type {code, state}`. Errors: 400 `invalid oauth2 code` (empty or refused
 * by the provider), `invalid oauth2 state` (unknown, expired, used, or of another provider),
 * `user not found` (unknown account while sign-up is off), `oauth2 account already bound` (bind of
 * an account linked to another user, or a second account of one provider), 500 `oauth2 provider error`.
 */
export async function finishFlow(services: OAuth2Services, name: string, code: string, state: string, origin: string): Promise<CallbackResult> {
  if (!code) throw badRequest('invalid oauth2 code');
  const settings = await services.store.settings.get();
  const provider = enabledProvider(settings, name);
  const flow = await services.states.take(state);
  if (!flow || flow.provider !== provider) throw badRequest('invalid oauth2 state');
  const profile = await exchangeCode(PROVIDER_SPECS[provider], endpointsOf(services, provider), clientConfig(settings, provider, origin), code);
  const { store } = services;
  const link = await store.providers.find(provider, profile.id);

  if (flow.kind === 'bind') {
    const user = await store.users.findById(flow.userId);
    if (!user) throw badRequest('user not found');
    if (link) {
      if (link.userId === user.id) return { kind: 'bind', user, redirect: flow.redirect };
      throw badRequest('oauth2 account already bound');
    }
    try {
      await store.providers.insert({ provider, providerUserId: profile.id, userId: user.id, createdAt: Date.now() });
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest('oauth2 account already bound');
      throw error;
    }
    return { kind: 'bind', user, redirect: flow.redirect };
  }

  if (link) {
    const user = await store.users.findById(link.userId);
    if (!user) throw badRequest('user not found');
    return { kind: 'auth', user, redirect: flow.redirect };
  }
  const config = oauth2Config(settings, provider);
  if (settings.disable_user_signup || config.disableSignup) throw badRequest('user not found');
  const review = settings.signup_need_review || config.signupNeedReview;
  // The account signs in through the provider; its password is random until the user sets one.
  const hashedPassword = await hashPassword(crypto.randomBytes(24).toString('base64url'));
  const user = await insertUserWithFreeName(
    store,
    { id: newId(), username: usernameFrom(provider, profile), hashedPassword, role: review ? Role.Pending : Role.User, createdAt: Date.now(), email: '' },
    { provider, providerUserId: profile.id },
  );
  return { kind: 'auth', user, redirect: flow.redirect };
}

/** `GET /api/user/providers`: every enabled provider → `{providerUserId, createdAt}` ("" and 0 when unbound). */
export async function providerBindings(store: Store, user: UserRecord): Promise<Record<string, { providerUserId: string; createdAt: number }>> {
  const links = new Map((await store.providers.ofUser(user.id)).map((link) => [link.provider, link]));
  const result: Record<string, { providerUserId: string; createdAt: number }> = {};
  for (const provider of enabledProviders(await store.settings.get())) {
    const link = links.get(provider);
    result[provider] = { providerUserId: link?.providerUserId ?? '', createdAt: link?.createdAt ?? 0 };
  }
  return result;
}

/** `POST /oauth2/unbind/:type` → 204. Error: 400 `invalid oauth2 provider`; unbinding an unbound provider is a no-op. */
export async function unbindProvider(store: Store, user: UserRecord, name: string): Promise<void> {
  if (!isOAuth2Provider(name)) throw badRequest('invalid oauth2 provider');
  await store.providers.delete(user.id, name);
}
