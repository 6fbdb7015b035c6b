import { buildMenu, returnPathOf, signupAllowed, type MenuContext } from './menu';
import { Role } from '@/lib/contract/roles';
import type { PublicSettings } from '@/lib/contract/types';

const names = (ctx: MenuContext) => buildMenu(ctx).map((entry) => entry.name);
const base: MenuContext = { role: Role.Visitor, guestEnable: false, signupAllowed: false, cinemaPath: null };

describe('buildMenu', () => {
  it('shows an anonymous visitor the public links and Login', () => {
    expect(names(base)).toEqual(['home', 'search', 'rooms', 'login']);
  });

  it('adds Register when a signup method is open', () => {
    expect(names({ ...base, signupAllowed: true })).toEqual(['home', 'search', 'rooms', 'login', 'register']);
  });

  it('adds Join room for guests, and Cinema while inside one', () => {
    expect(names({ ...base, guestEnable: true })).toEqual(['home', 'search', 'rooms', 'joinRoom', 'login']);
    const menu = buildMenu({ ...base, guestEnable: true, cinemaPath: '/cinema/abc' });
    expect(menu.map((e) => e.name)).toEqual(['home', 'search', 'rooms', 'joinRoom', 'cinema', 'login']);
    expect(menu.find((e) => e.name === 'cinema')?.href).toBe('/cinema/abc');
  });

  it('never shows Cinema to a visitor when guests are disabled', () => {
    expect(names({ ...base, cinemaPath: '/cinema/abc' })).not.toContain('cinema');
  });

  it('shows a signed-in user Join, Create and the personal center, without Login or Register', () => {
    const menu = buildMenu({ ...base, role: Role.User, signupAllowed: true, guestEnable: true });
    expect(menu.map((e) => e.name)).toEqual(['home', 'search', 'rooms', 'joinRoom', 'createRoom', 'myself']);
    expect(menu.find((e) => e.name === 'joinRoom')?.href).toBe('/joinRoom');
    expect(menu.find((e) => e.name === 'myself')).toMatchObject({ href: '/user/me', title: 'nav.myself' });
  });

  it('replaces Join and Create by Cinema inside a cinema', () => {
    expect(names({ ...base, role: Role.User, cinemaPath: '/cinema/abc' })).toEqual(['home', 'search', 'rooms', 'cinema', 'myself']);
  });

  it('adds the admin console from role Admin up', () => {
    expect(names({ ...base, role: Role.Admin })).toContain('admin');
    expect(names({ ...base, role: Role.Root })).toContain('admin');
    expect(names({ ...base, role: Role.User })).not.toContain('admin');
  });
});

describe('signupAllowed', () => {
  const closed: PublicSettings = {
    passwordDisableSignup: true,
    emailEnable: false,
    emailDisableSignup: false,
    emailWhitelistEnabled: false,
    emailWhitelist: [],
    oauth2DisableSignup: true,
    guestEnable: true,
    p2pZone: 'hk',
  };

  it('is false while the settings are unknown or every method is closed', () => {
    expect(signupAllowed(null)).toBe(false);
    expect(signupAllowed(closed)).toBe(false);
  });

  it('is true when any one method is open', () => {
    expect(signupAllowed({ ...closed, passwordDisableSignup: false })).toBe(true);
    expect(signupAllowed({ ...closed, oauth2DisableSignup: false })).toBe(true);
    expect(signupAllowed({ ...closed, emailEnable: true })).toBe(true);
    expect(signupAllowed({ ...closed, emailEnable: true, emailDisableSignup: true })).toBe(false);
  });
});

describe('the way back after signing in', () => {
  it('gives Log in and Register the current page as redirect', () => {
    const menu = buildMenu({ ...base, signupAllowed: true, returnTo: '/cinema/abc?x=1' });
    expect(menu.find((e) => e.name === 'login')?.href).toBe('/auth/login?redirect=%2Fcinema%2Fabc%3Fx%3D1');
    expect(menu.find((e) => e.name === 'register')?.href).toBe('/auth/register?redirect=%2Fcinema%2Fabc%3Fx%3D1');
    expect(buildMenu({ ...base, signupAllowed: true }).find((e) => e.name === 'login')?.href).toBe('/auth/login');
  });

  it('returns to the page and its query, passes on a sign-in screen\'s own redirect, and has none on the home page', () => {
    expect(returnPathOf('cinema', '/cinema/abc/', '?pwd=1')).toBe('/cinema/abc?pwd=1');
    expect(returnPathOf('joinRoom', '/joinRoom/abc/', '')).toBe('/joinRoom/abc');
    expect(returnPathOf('login', '/auth/login/', '?redirect=%2Fcinema%2Fabc')).toBe('/cinema/abc');
    expect(returnPathOf('register', '/auth/register/', '')).toBeNull();
    expect(returnPathOf('home', '/', '')).toBeNull();
  });
});
