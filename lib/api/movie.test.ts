/** Movie list paging on both servers (docs/contract.md §4.5, §11 d) and playable URLs (§7.2). */
import type { Movie, MovieList } from '@/lib/contract/types';
import { pageOfMovies, playableUrl, withMediaChoice } from './movie';

const movies = (n: number): Movie[] =>
  Array.from({ length: n }, (_, i) => ({ id: String(i).padStart(32, '0'), creator: 'a', creatorId: 'b', subPath: '', base: { url: '', name: `m${i}` }, createAt: i }));
const list = (items: Movie[], total: number): MovieList => ({ movies: items, total, paths: [], dynamic: false });

describe('pageOfMovies', () => {
  it('uses a correctly paged answer as it is (companion server)', () => {
    const page = pageOfMovies(list(movies(10), 25), 3, 10);
    expect(page.movies).toHaveLength(10);
    expect(page.total).toBe(25);
  });

  it('slices an unpaged answer locally and counts it (v0.9.11, total 0 on page 2)', () => {
    const page = pageOfMovies(list(movies(25), 0), 3, 10);
    expect(page.movies.map((m) => m.base.name)).toEqual(['m20', 'm21', 'm22', 'm23', 'm24']);
    expect(page.total).toBe(25);
  });

  it('handles a null list', () => {
    expect(pageOfMovies({ movies: null, total: 0, paths: [], dynamic: false }, 1, 10)).toEqual({ movies: [], total: 0 });
  });
});

describe('playableUrl', () => {
  it('prefixes server-relative URLs with the API origin and leaves absolute ones', () => {
    expect(playableUrl('/api/room/movie/proxy/abc?token=t')).toBe(`${window.location.origin}/api/room/movie/proxy/abc?token=t`);
    expect(playableUrl('https://cdn.example/a.m3u8')).toBe('https://cdn.example/a.m3u8');
    expect(playableUrl('//cdn.example/a.m3u8')).toBe('//cdn.example/a.m3u8');
  });
});

describe('withMediaChoice', () => {
  const url = 'https://api.example/api/room/movie/proxy/m1?token=t&roomId=r';
  it('adds the audio track, the bitrate and the subtitle to draw in chosen, and leaves the URL alone when nothing is', () => {
    expect(withMediaChoice(url, { audio: null, maxBitrate: null, subtitle: null })).toBe(url);
    expect(withMediaChoice(url, { audio: 2, maxBitrate: null, subtitle: null })).toBe(`${url}&audio=2`);
    expect(withMediaChoice(url, { audio: 0, maxBitrate: 4_000_000, subtitle: null })).toBe(`${url}&audio=0&maxBitrate=4000000`);
    expect(withMediaChoice('/proxy/m1', { audio: null, maxBitrate: 1_000_000, subtitle: null })).toBe('/proxy/m1?maxBitrate=1000000');
    expect(withMediaChoice(url, { audio: 1, maxBitrate: null, subtitle: 4 })).toBe(`${url}&audio=1&subtitle=4`);
  });
});
