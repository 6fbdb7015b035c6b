import { decideGuard, loginPath, safeRedirect } from './guard';
import { Role } from '@/lib/contract/roles';

const visitor = { role: Role.Visitor, guestEnable: false };
const guestSite = { role: Role.Visitor, guestEnable: true };

describe('decideGuard: visitor routes', () => {
  it.each(['/', '/auth/login', '/auth/register/', '/auth/reset', '/rooms/', '/search', '/403', '/oauth2/callback/github/'])(
    'lets a visitor open %s',
    (pathname) => {
      expect(decideGuard({ pathname, ...visitor })).toEqual({ kind: 'allow' });
    },
  );

  it('lets anyone see the 404 page of an unknown path', () => {
    expect(decideGuard({ pathname: '/no/such/page', ...visitor })).toEqual({ kind: 'allow' });
  });
});

describe('decideGuard: a visitor on a protected route', () => {
  it('sends /createRoom to exactly /auth/login?redirect=%2FcreateRoom', () => {
    expect(decideGuard({ pathname: '/createRoom', ...visitor })).toEqual({
      kind: 'redirect',
      to: '/auth/login?redirect=%2FcreateRoom',
    });
  });

  it('drops the trailing slash that usePathname keeps', () => {
    expect(decideGuard({ pathname: '/createRoom/', ...visitor })).toEqual({
      kind: 'redirect',
      to: '/auth/login?redirect=%2FcreateRoom',
    });
  });

  it('keeps the query string in the wanted full path', () => {
    expect(decideGuard({ pathname: '/user/me/', search: '?tab=rooms', ...visitor })).toEqual({
      kind: 'redirect',
      to: '/auth/login?redirect=%2Fuser%2Fme%3Ftab%3Drooms',
    });
  });

  it('sends the admin console to login, not to 403', () => {
    expect(decideGuard({ pathname: '/admin', ...visitor })).toEqual({
      kind: 'redirect',
      to: '/auth/login?redirect=%2Fadmin',
    });
  });

  it('lets a visitor into a cinema only when guest access is enabled', () => {
    expect(decideGuard({ pathname: '/cinema/0123456789abcdef0123456789abcdef/', ...guestSite })).toEqual({ kind: 'allow' });
    expect(decideGuard({ pathname: '/cinema/0123456789abcdef0123456789abcdef/', ...visitor })).toEqual({
      kind: 'redirect',
      to: '/auth/login?redirect=%2Fcinema%2F0123456789abcdef0123456789abcdef',
    });
  });

  it('always lets a visitor reach the join screen, with or without a room id', () => {
    for (const pathname of ['/joinRoom', '/joinRoom/', '/joinRoom/abc/']) {
      expect(decideGuard({ pathname, ...visitor })).toEqual({ kind: 'allow' });
      expect(decideGuard({ pathname, ...guestSite })).toEqual({ kind: 'allow' });
    }
  });

  it('does not treat guest access as a pass for other user pages', () => {
    expect(decideGuard({ pathname: '/createRoom', ...guestSite })).toEqual({
      kind: 'redirect',
      to: '/auth/login?redirect=%2FcreateRoom',
    });
  });
});

describe('decideGuard: signed-in users', () => {
  it.each(['/createRoom', '/joinRoom', '/joinRoom/abc', '/cinema/abc', '/user/me/', '/rooms'])('lets a User open %s', (pathname) => {
    expect(decideGuard({ pathname, role: Role.User, guestEnable: false })).toEqual({ kind: 'allow' });
  });

  it('sends a User away from the admin console to /403', () => {
    expect(decideGuard({ pathname: '/admin/', role: Role.User, guestEnable: true })).toEqual({ kind: 'redirect', to: '/403' });
  });

  it.each([Role.Admin, Role.Root])('lets role %i open the admin console', (role) => {
    expect(decideGuard({ pathname: '/admin', role, guestEnable: false })).toEqual({ kind: 'allow' });
  });

  it.each([Role.Unknown, Role.Banned, Role.Pending])('sends role %i from user pages to /403, never to login', (role) => {
    for (const pathname of ['/createRoom', '/user/me', '/joinRoom/abc', '/cinema/abc']) {
      expect(decideGuard({ pathname, role, guestEnable: true })).toEqual({ kind: 'redirect', to: '/403' });
    }
  });

  it('still lets Banned or Pending users see visitor pages', () => {
    expect(decideGuard({ pathname: '/', role: Role.Banned, guestEnable: false })).toEqual({ kind: 'allow' });
    expect(decideGuard({ pathname: '/search', role: Role.Pending, guestEnable: false })).toEqual({ kind: 'allow' });
  });
});

describe('loginPath and safeRedirect', () => {
  it('encodes the wanted path as one query value', () => {
    expect(loginPath('/joinRoom/abc?pwd=a&b')).toBe('/auth/login?redirect=%2FjoinRoom%2Fabc%3Fpwd%3Da%26b');
  });

  it('follows same-site paths only, in the export\'s trailing-slash form', () => {
    expect(safeRedirect('/createRoom')).toBe('/createRoom/');
    expect(safeRedirect('/cinema/abc?x=1')).toBe('/cinema/abc/?x=1');
    expect(safeRedirect('/cinema/abc/#chat')).toBe('/cinema/abc/#chat');
    expect(safeRedirect('//evil.example/')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('https://evil.example/')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('')).toBe('/');
  });
});
