/**
 * The OAuth2 authorization code flow against one provider of ./providers.ts, through oauth4webapi
 * (RFC 6749 client: client authentication, token request, error responses). The identity comes
 * from the provider's profile API, not from an OpenID `id_token`, so a returned `id_token` is
 * dropped before oauth4webapi reads the response.
 */
import * as oauth from 'oauth4webapi';
import { badRequest, HttpError } from '../errors';
import type { ProviderEndpoints, ProviderProfile, ProviderSpec } from './providers';

/** The client settings of one provider (§5.6 `oauth2_<p>_client_id`, `_client_secret`, `_redirect_url`). */
export interface OAuth2ClientConfig {
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
}

/** Time allowed for each call to the provider, ms. */
const PROVIDER_TIMEOUT_MS = 10_000;

function server(endpoints: ProviderEndpoints): oauth.AuthorizationServer {
  return {
    issuer: new URL(endpoints.authorize).origin,
    authorization_endpoint: endpoints.authorize,
    token_endpoint: endpoints.token,
  };
}

/** The provider's authorization URL for `state` (the browser is sent there). */
export function authorizationUrl(spec: ProviderSpec, endpoints: ProviderEndpoints, config: OAuth2ClientConfig, state: string): string {
  const url = new URL(endpoints.authorize);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', config.redirectUrl);
  url.searchParams.set('state', state);
  if (spec.scopes.length) url.searchParams.set('scope', spec.scopes.join(' '));
  for (const [key, value] of Object.entries(spec.authorizeParams ?? {})) url.searchParams.set(key, value);
  return url.toString();
}

/** A fetch that normalizes the token response: the provider's own fix-up, no `id_token`, a `token_type` when missing. */
function tokenFetch(spec: ProviderSpec): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
    let body = await response.text();
    if (spec.tokenBody) body = spec.tokenBody(body);
    try {
      const json = JSON.parse(body) as Record<string, unknown>;
      if (response.ok && json && typeof json === 'object') {
        delete json.id_token;
        if (typeof json.access_token === 'string' && typeof json.token_type !== 'string') json.token_type = 'bearer';
        body = JSON.stringify(json);
      }
    } catch {
      // Not JSON: oauth4webapi reports it.
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * Exchanges `code` for an access token and reads the profile. Throws 400 `invalid oauth2 code` when
 * the provider refuses the code, and 500 `oauth2 provider error` when it cannot be reached or answers
 * something unreadable (the cause goes to the log).
 */
export async function exchangeCode(
  spec: ProviderSpec,
  endpoints: ProviderEndpoints,
  config: OAuth2ClientConfig,
  code: string,
): Promise<ProviderProfile> {
  const as = server(endpoints);
  const client: oauth.Client = { client_id: config.clientId };
  const auth = spec.clientAuth === 'basic' ? oauth.ClientSecretBasic(config.clientSecret) : oauth.ClientSecretPost(config.clientSecret);
  const insecure = new URL(endpoints.token).protocol === 'http:';
  let accessToken: string;
  try {
    const params = oauth.validateAuthResponse(as, client, new URLSearchParams({ code }), oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, config.redirectUrl, oauth.nopkce, {
      [oauth.customFetch]: tokenFetch(spec),
      [oauth.allowInsecureRequests]: insecure,
    });
    accessToken = (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
      throw badRequest('invalid oauth2 code');
    }
    throw new HttpError(500, 'oauth2 provider error', { cause: error });
  }

  const get = async (url: string, options: { tokenInQuery?: boolean; headers?: Record<string, string> } = {}) => {
    const target = new URL(url);
    if (options.tokenInQuery) target.searchParams.set('access_token', accessToken);
    const response = await fetch(target, {
      headers: {
        Accept: 'application/json',
        'User-Agent': 'synctv-companion',
        ...(options.tokenInQuery ? {} : { Authorization: `Bearer ${accessToken}` }),
        ...options.headers,
      },
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`profile request answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  try {
    const profile = await spec.profile(accessToken, get, endpoints);
    if (!profile.id) throw new Error('the profile has no id');
    return profile;
  } catch (error) {
    throw new HttpError(500, 'oauth2 provider error', { cause: error });
  }
}
