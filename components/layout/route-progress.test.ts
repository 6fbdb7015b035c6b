import { isSameLocation, locationKey } from './route-progress';

const here = 'http://localhost/web/rooms/?page=2';

describe('route progress: same-location detection', () => {
  it('reduces router paths and absolute /web URLs to one key', () => {
    expect(locationKey('/cinema/abc', here)).toBe('/cinema/abc');
    expect(locationKey('http://localhost/web/cinema/abc/', here)).toBe('/cinema/abc');
    expect(locationKey('http://localhost/web/', here)).toBe('/');
    expect(locationKey('/', here)).toBe('/');
  });

  it('treats a link to the current page as no navigation (it would never finish the bar)', () => {
    expect(isSameLocation('/rooms?page=2', here)).toBe(true);
    expect(isSameLocation('http://localhost/web/rooms/?page=2', here)).toBe(true);
  });

  it('sees other paths and other queries as navigations', () => {
    expect(isSameLocation('/rooms', here)).toBe(false);
    expect(isSameLocation('/rooms?page=3', here)).toBe(false);
    expect(isSameLocation('/search', here)).toBe(false);
  });
});
