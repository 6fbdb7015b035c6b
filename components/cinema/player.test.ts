/** Which engine plays a movie: hls.js for HLS, the native element for the rest. */
import { isHlsSource } from './player';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('zh', key, params);
  return { useT: () => t, t };
});

describe('isHlsSource', () => {
  it('follows the movie type when set', () => {
    expect(isHlsSource('https://x/a', 'm3u8')).toBe(true);
    expect(isHlsSource('https://x/a.m3u8', 'mp4')).toBe(false);
  });

  it('guesses from the URL path otherwise, ignoring the query', () => {
    expect(isHlsSource('https://x/live/index.m3u8?token=a')).toBe(true);
    expect(isHlsSource('/api/room/movie/live/hls/list/abc.m3u8?token=&roomId=r')).toBe(true);
    expect(isHlsSource('https://x/movie.mp4?m3u8=1')).toBe(false);
  });
});
