import { expect, test, seedToken, USER_PASSWORD } from './fixtures';
import { LoginPage } from './pages/login-page';
import { uniqueName } from './support/api';

test('a visitor opening /createRoom is sent to login with redirect=%2FcreateRoom, and back after signing in', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  await visitor.page.goto(app.url('/createRoom'));
  await expect(visitor.page.getByTestId('page-login')).toBeVisible();
  const url = new URL(visitor.page.url());
  expect(url.pathname).toBe('/web/auth/login/');
  expect(url.searchParams.get('redirect')).toBe('/createRoom');
  expect(url.search).toBe('?redirect=%2FcreateRoom');

  // Signing in there leads back to the page the visitor wanted.
  const username = uniqueName('g');
  await app.api.signup(username, USER_PASSWORD);
  await new LoginPage(visitor.page, app.origin).login(username, USER_PASSWORD);
  await expect(visitor.page.getByTestId('page-createRoom')).toBeVisible();
  expect(new URL(visitor.page.url()).pathname).toBe('/web/createRoom/');
  expect(visitor.errors).toEqual([]);
});

test('a signed-in user opening /admin is sent to /403', async ({ app, actors }) => {
  const user = await actors.user();
  await user.page.goto(app.url('/admin'));
  await expect(user.page.getByTestId('page-403')).toBeVisible();
  expect(new URL(user.page.url()).pathname).toBe('/web/403/');
  expect(user.errors).toEqual([]);
});

test('a 401 on /api/user/me clears the stored token and lands on home', async ({ app, actors }) => {
  const visitor = await actors.visitor();
  await seedToken(visitor.context, 'not-a-valid-jwt');
  const me = visitor.page.waitForResponse((res) => new URL(res.url()).pathname === '/api/user/me');
  await visitor.page.goto(app.url('/'));
  expect((await me).status()).toBe(401);
  await expect
    .poll(() => visitor.page.evaluate(() => window.localStorage.getItem('userToken')), {
      message: 'userToken still in localStorage after the 401',
    })
    .toBeNull();
  // The sign-out goes home after 1 s; wait it out, then the visitor must be on home, signed out.
  await visitor.page.waitForTimeout(1500);
  await expect(visitor.page.getByTestId('page-home')).toBeVisible();
  expect(new URL(visitor.page.url()).pathname).toBe('/web/');
  await expect(visitor.page.getByTestId('header-username')).toHaveCount(0);
  expect(await visitor.page.evaluate(() => window.localStorage.getItem('userToken'))).toBeNull();
  expect(visitor.errors).toEqual([]);
});
