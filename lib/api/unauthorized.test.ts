import { classifyUnauthorized } from './unauthorized';

const ROOM_ID = '0123456789abcdef0123456789abcdef';

describe('classifyUnauthorized: 401s that mean "join the room first"', () => {
  it.each([
    '/api/room/movie/movies',
    '/api/room/movie/current',
    '/api/room/movie/push',
    '/api/room/movie/delete',
    '/api/room/admin/delete',
    '/api/room/admin/pwd',
    '/api/room/delete',
    '/api/room/pwd',
    '/api/room/pwd/check',
    '/api/room/me',
    '/api/room/members',
    '/api/room/settings',
    '/api/room/admin/settings',
    '/api/room/admin/members',
    '/api/room/admin/members/ban',
  ])('%s goes to /joinRoom with the X-Room-Id', (path) => {
    expect(classifyUnauthorized(path, ROOM_ID)).toEqual({ kind: 'joinRoom', roomId: ROOM_ID });
  });
});

describe('classifyUnauthorized: 401s that end the session', () => {
  it.each([
    '/api/user/me',
    '/api/user/rooms',
    '/api/room/info',
    '/api/room/joined',
    '/api/room/login',
    '/api/room/membersx',
    '/api/room/administer',
  ])('%s signs out', (path) => {
    expect(classifyUnauthorized(path, ROOM_ID)).toEqual({ kind: 'signOut' });
  });

  it('signs out when a room path carries no room id, since there is no room to send the user to', () => {
    expect(classifyUnauthorized('/api/room/movie/movies', null)).toEqual({ kind: 'signOut' });
    expect(classifyUnauthorized('/api/room/me', '')).toEqual({ kind: 'signOut' });
  });
});
