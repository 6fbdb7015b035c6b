import { routeBootAction, routeBootConfig, routeBootScript } from './route-boot-script';

const ROOM = '0123456789abcdef0123456789abcdef';

/** What the script does on a document prerendered for `doc`, opened at `url` (path, query, hash). */
function act(doc: string, url: string) {
  const parsed = new URL(url, 'http://synctv.test');
  return routeBootAction(routeBootConfig(doc), parsed.pathname, parsed.search, parsed.hash);
}

const nothing = { restore: null, redirect: null };

describe('route boot script: documents that match their address stay', () => {
  it.each([
    ['/', '/web/'],
    ['/auth/login/', '/web/auth/login/'],
    ['/auth/login/', '/web/auth/login'],
    ['/cinema/_/', `/web/cinema/${ROOM}/`],
    ['/joinRoom/', '/web/joinRoom/'],
    ['/joinRoom/_/', `/web/joinRoom/${ROOM}/?pwd=x`],
    ['/oauth2/callback/github/', '/web/oauth2/callback/github/?code=1&state=2'],
    ['/_not-found/', '/web/no/such/page/'],
    ['/_not-found/', '/web/rooms/extra/'],
  ])('%s at %s', (doc, url) => {
    expect(act(doc, url)).toEqual(nothing);
  });

  it('leaves pages outside the basePath alone', () => {
    expect(act('/', '/elsewhere/cinema/x/')).toEqual(nothing);
    expect(act('/', '/webby/')).toEqual(nothing);
  });
});

describe('route boot script: the home page served for another route (SyncTV fallback)', () => {
  it('loads the route file by its exact name and carries the address, query and hash included', () => {
    expect(act('/', '/web/auth/login/?redirect=%2Frooms#top')).toEqual({
      restore: null,
      redirect: `/web/auth/login.html?_route=${encodeURIComponent('/auth/login/?redirect=%2Frooms#top')}`,
    });
  });

  it('maps a real room id onto the placeholder document', () => {
    expect(act('/', `/web/cinema/${ROOM}/`).redirect).toBe(`/web/cinema/_.html?_route=${encodeURIComponent(`/cinema/${ROOM}/`)}`);
    expect(act('/', `/web/joinRoom/${ROOM}/`).redirect).toBe(`/web/joinRoom/_.html?_route=${encodeURIComponent(`/joinRoom/${ROOM}/`)}`);
    expect(act('/', '/web/joinRoom/').redirect).toBe(`/web/joinRoom.html?_route=${encodeURIComponent('/joinRoom/')}`);
  });

  it('carries an address typed without the trailing slash back in the canonical form', () => {
    expect(act('/', `/web/cinema/${ROOM}?t=1`).redirect).toBe(`/web/cinema/_.html?_route=${encodeURIComponent(`/cinema/${ROOM}/?t=1`)}`);
    expect(act('/', '/web/rooms').redirect).toBe(`/web/rooms.html?_route=${encodeURIComponent('/rooms/')}`);
  });

  it('sends unknown paths to the 404 page', () => {
    expect(act('/', '/web/nope/deeper/').redirect).toBe(`/web/404.html?_route=${encodeURIComponent('/nope/deeper/')}`);
    expect(act('/', '/web/cinema/').redirect).toBe(`/web/404.html?_route=${encodeURIComponent('/cinema/')}`);
  });

  it("undoes Go's folder redirect /a/b/ → /a/b/b/ (SyncTV --web-path), but keeps a room named like its route", () => {
    expect(act('/', '/web/auth/login/login/?x=1').redirect).toBe(`/web/auth/login.html?_route=${encodeURIComponent('/auth/login/?x=1')}`);
    expect(act('/', '/web/joinRoom/joinRoom/').redirect).toBe(`/web/joinRoom.html?_route=${encodeURIComponent('/joinRoom/')}`);
    expect(act('/', '/web/cinema/cinema/').redirect).toBe(`/web/cinema/_.html?_route=${encodeURIComponent('/cinema/cinema/')}`);
  });
});

describe('route boot script: the document reached through the redirect', () => {
  it('puts the carried address back and stays', () => {
    const carried = encodeURIComponent(`/cinema/${ROOM}/?t=1#chat`);
    expect(act('/cinema/_/', `/web/cinema/_.html?_route=${carried}`)).toEqual({ restore: `/web/cinema/${ROOM}/?t=1#chat`, redirect: null });
  });

  it('shows the 404 page, once, when the route file was missing too (no loop)', () => {
    const carried = encodeURIComponent('/oauth2/callback/unknown/?code=1');
    // The server had no oauth2/callback/unknown.html and answered with the home page again.
    expect(act('/', `/web/oauth2/callback/unknown.html?_route=${carried}`)).toEqual({
      restore: '/web/oauth2/callback/unknown/?code=1',
      redirect: `/web/404.html?_route=${carried}`,
    });
    expect(act('/_not-found/', `/web/404.html?_route=${carried}`)).toEqual({ restore: '/web/oauth2/callback/unknown/?code=1', redirect: null });
  });

  it('never restores an address outside the basePath', () => {
    expect(act('/', `/web/?_route=${encodeURIComponent('https://evil.test/x')}`)).toEqual({ restore: '/web/', redirect: null });
  });
});

describe('route boot script: the inline text', () => {
  it('is one self-contained expression that cannot close its <script> element', () => {
    const script = routeBootScript('/cinema/_/');
    expect(script).not.toMatch(/<\/script/i);
    expect(() => new Function(script)).not.toThrow();
  });

  it('runs in a page: restores the address before anything else reads it', () => {
    window.history.replaceState(null, '', `/web/cinema/_.html?_route=${encodeURIComponent(`/cinema/${ROOM}/`)}`);
    new Function(routeBootScript('/cinema/_/'))();
    expect(window.location.pathname + window.location.search).toBe(`/web/cinema/${ROOM}/`);
  });
});
