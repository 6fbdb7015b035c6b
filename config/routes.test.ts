import { matchRoute, normalizePath, notFoundRoute, withTrailingSlash } from './routes';
import { Role } from '@/lib/contract/roles';

describe('normalizePath', () => {
  it('drops the trailing slash that trailingSlash export keeps, but not the root', () => {
    expect(normalizePath('/rooms/')).toBe('/rooms');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('/cinema/abc/')).toBe('/cinema/abc');
  });

  it('ignores the query and the hash', () => {
    expect(normalizePath('/auth/login/?redirect=%2F')).toBe('/auth/login');
    expect(normalizePath('/search#top')).toBe('/search');
  });
});

describe('matchRoute', () => {
  it.each([
    ['/', 'home'],
    ['/auth/login/', 'login'],
    ['/auth/register', 'register'],
    ['/auth/reset/', 'reset'],
    ['/createRoom/', 'createRoom'],
    ['/rooms', 'rooms'],
    ['/search/', 'search'],
    ['/user/me/', 'myself'],
    ['/admin', 'admin'],
    ['/403/', '403'],
    ['/oauth2/callback/github/', 'callback'],
    ['/cinema/0123456789abcdef0123456789abcdef/', 'cinema'],
    ['/cinema/_', 'cinema'],
  ])('%s is %s', (path, name) => {
    expect(matchRoute(path).name).toBe(name);
  });

  it('matches /joinRoom with and without the optional room id', () => {
    expect(matchRoute('/joinRoom').name).toBe('joinRoom');
    expect(matchRoute('/joinRoom/').name).toBe('joinRoom');
    expect(matchRoute('/joinRoom/abc/').name).toBe('joinRoom');
    expect(matchRoute('/joinRoom/abc/extra')).toBe(notFoundRoute);
  });

  it('gives the 404 route for unknown paths, missing required ids and extra segments', () => {
    for (const path of ['/nope', '/cinema', '/cinema/', '/cinema/a/b', '/oauth2/callback', '/auth', '/user/me/more']) {
      expect(matchRoute(path)).toBe(notFoundRoute);
    }
    expect(notFoundRoute).toMatchObject({ name: '404', minRole: Role.Visitor });
  });

  it('carries the minimum roles of the route table', () => {
    expect(matchRoute('/rooms').minRole).toBe(Role.Visitor);
    expect(matchRoute('/joinRoom/abc').minRole).toBe(Role.User);
    expect(matchRoute('/cinema/abc').minRole).toBe(Role.User);
    expect(matchRoute('/admin/').minRole).toBe(Role.Admin);
  });
});

describe('withTrailingSlash', () => {
  it('adds the slash to the path part only, once', () => {
    expect(withTrailingSlash('/')).toBe('/');
    expect(withTrailingSlash('/rooms')).toBe('/rooms/');
    expect(withTrailingSlash('/rooms/')).toBe('/rooms/');
    expect(withTrailingSlash('/cinema/abc?x=1&y=/z')).toBe('/cinema/abc/?x=1&y=/z');
    expect(withTrailingSlash('/joinRoom/abc#pwd')).toBe('/joinRoom/abc/#pwd');
  });
});
