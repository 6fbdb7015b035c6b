import { DEFAULT_ICE_SERVERS } from './mesh';
import { iceServers } from './ice-servers';

describe('the build’s ICE servers', () => {
  it('are the configured list, without entries that have no URLs', () => {
    const json = JSON.stringify([
      { urls: 'stun:stun.example.com:3478' },
      { urls: ['turn:turn.example.com:3478'], username: 'u', credential: 'p' },
      { username: 'no urls' },
      { urls: [1] },
    ]);
    expect(iceServers(json)).toEqual([
      { urls: 'stun:stun.example.com:3478' },
      { urls: ['turn:turn.example.com:3478'], username: 'u', credential: 'p' },
    ]);
  });

  it('fall back to the reference client’s STUN server when unset, malformed or empty', () => {
    for (const json of [undefined, '', 'not json', '{"urls":"stun:x"}', '[]', '[{"urls":2}]']) expect(iceServers(json)).toBe(DEFAULT_ICE_SERVERS);
  });
});
