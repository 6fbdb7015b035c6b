/**
 * A real OAuth2 authorization server for the tests (oauth2-mock-server), standing in for GitHub:
 * the companion server's `github` provider points at it (StartServerOptions.oauth2Endpoints). It
 * issues a code per authorization, accepts each code once and only with the right client
 * credentials (invalid_grant otherwise), and its profile endpoint answers GitHub's shape
 * `{id, login}` for the account that authorized.
 */
import { OAuth2Server } from 'oauth2-mock-server';

/** The provider account that the next authorization signs in as (the person logged in at "GitHub"). */
export interface ProviderAccount {
  id: number;
  login: string;
}

export interface OAuthProvider {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Endpoints for StartServerOptions.oauth2Endpoints. */
  endpoints: { authorize: string; token: string; profile: string };
  /** Who authorizes next. */
  signInAs(account: ProviderAccount): void;
  /** Codes the provider issued (most recent last). */
  issuedCodes: string[];
  close(): Promise<void>;
}

export async function startOAuthProvider(): Promise<OAuthProvider> {
  const clientId = 'synctv-e2e-client';
  const clientSecret = 'synctv-e2e-secret';
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = server.issuer.url!.replace('localhost', '127.0.0.1');
  let account: ProviderAccount = { id: 1, login: 'octocat' };
  const codes = new Map<string, ProviderAccount>();
  const tokens = new Map<string, ProviderAccount>();
  const issuedCodes: string[] = [];

  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
    const code = redirect.url.searchParams.get('code');
    if (code) {
      codes.set(code, account);
      issuedCodes.push(code);
    }
  });
  server.service.on('beforeResponse', (response: { statusCode: number; body: Record<string, unknown> }, req: { headers: Record<string, string>; body: Record<string, string> }) => {
    // RFC 6749 §2.3.1: Basic credentials are form-encoded before base64.
    const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    const [id = '', secret = ''] = basic.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
    const owner = codes.get(req.body.code);
    codes.delete(req.body.code);
    if (!owner || id !== clientId || secret !== clientSecret) {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant', error_description: 'The code is unknown, used or not for this client.' };
      return;
    }
    tokens.set(String(response.body.access_token), owner);
  });
  server.service.on('beforeUserinfo', (response: { statusCode: number; body: unknown }, req: { headers: Record<string, string> }) => {
    const owner = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!owner) {
      response.statusCode = 401;
      response.body = { message: 'Bad credentials' };
      return;
    }
    response.body = { id: owner.id, login: owner.login };
  });

  return {
    url,
    clientId,
    clientSecret,
    endpoints: { authorize: `${url}/authorize`, token: `${url}/token`, profile: `${url}/userinfo` },
    signInAs: (next) => {
      account = next;
    },
    issuedCodes,
    close: () => server.stop(),
  };
}
