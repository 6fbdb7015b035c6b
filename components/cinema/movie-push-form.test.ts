/** What the push form sends and refuses (server-contract.md §7.1, §8). */
import { movieBaseOf, pushProblem } from './movie-push-form';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('zh', key, params);
  return { useT: () => t, t };
});

describe('movie push body', () => {
  it('sends a trimmed direct link with the live flag', () => {
    expect(movieBaseOf({ url: ' https://x.test/a.m3u8 ', name: ' Clip ', live: true })).toEqual({
      url: 'https://x.test/a.m3u8',
      name: 'Clip',
      live: true,
      type: '',
      proxy: false,
      parentId: '',
    });
  });

  it('requires a URL with a playable scheme', () => {
    expect(pushProblem(movieBaseOf({ url: '', name: 'a', live: false }))).toEqual({ field: 'url', key: 'cinema.push.urlRequired' });
    expect(pushProblem(movieBaseOf({ url: 'ftp://x/a.mp4', name: 'a', live: false }))).toEqual({ field: 'url', key: 'cinema.push.urlScheme' });
    expect(pushProblem(movieBaseOf({ url: 'magnet:?xt=urn:btih:abc', name: 'a', live: false }))).toBeNull();
  });

  it('requires a name', () => {
    expect(pushProblem(movieBaseOf({ url: 'http://x/a.mp4', name: '  ', live: false }))).toEqual({ field: 'name', key: 'cinema.push.nameRequired' });
  });

  it('refuses a URL over 8192 bytes', () => {
    const url = `https://x.test/${'a'.repeat(8200)}`;
    expect(pushProblem(movieBaseOf({ url, name: 'a', live: false }))).toEqual({ field: 'url', key: 'cinema.push.urlTooLong' });
  });
});
