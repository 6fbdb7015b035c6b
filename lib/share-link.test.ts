/** Where share links point (./share-link.ts). */
import { onlyThisMachine, shareLink, shareOrigin } from './share-link';

describe('shareOrigin', () => {
  it("leads with the site's address, with or without a scheme, else the page's", () => {
    expect(shareOrigin('https://watch.example.com', 'http://localhost:8080')).toBe('https://watch.example.com');
    expect(shareOrigin('watch.example.com:8080', 'http://localhost:8080')).toBe('http://watch.example.com:8080');
    expect(shareOrigin('https://watch.example.com/some/path/', 'http://localhost:8080')).toBe('https://watch.example.com');
    expect(shareOrigin('', 'http://192.168.1.20:8080')).toBe('http://192.168.1.20:8080');
    expect(shareOrigin(undefined, 'http://192.168.1.20:8080')).toBe('http://192.168.1.20:8080');
    expect(shareOrigin('http://[bad', 'http://192.168.1.20:8080')).toBe('http://192.168.1.20:8080');
  });
});

describe('shareLink', () => {
  it('is the join route under /web, with the password when given', () => {
    expect(shareLink('https://w.example', 'abc')).toBe('https://w.example/web/joinRoom/abc/');
    expect(shareLink('https://w.example', 'abc', 'p w')).toBe('https://w.example/web/joinRoom/abc/?pwd=p%20w');
  });
});

describe('onlyThisMachine', () => {
  it('tells loopback and unspecified addresses from ones others can reach', () => {
    for (const origin of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://127.0.1.1', 'http://[::1]:8080', 'http://0.0.0.0:8080', 'http://app.localhost']) expect([origin, onlyThisMachine(origin)]).toEqual([origin, true]);
    for (const origin of ['http://192.168.1.20:8080', 'https://watch.example.com', 'http://[2001:db8::1]']) expect([origin, onlyThisMachine(origin)]).toEqual([origin, false]);
  });
});
