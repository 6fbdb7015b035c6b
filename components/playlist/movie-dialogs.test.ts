/** The edit dialog's mapping between a movie's base and its form: nothing it does not show is lost. */
import { editedBase, formValuesOf } from './movie-dialogs';

jest.mock('@/lib/i18n', () => ({ useT: () => (key: string) => key, t: (key: string) => key }));

const base = {
  url: 'https://cdn.test/a.m3u8',
  name: 'A',
  type: 'm3u8',
  live: false,
  proxy: false,
  danmu: 'https://cdn.test/a.xml',
  parentId: 'f'.repeat(32),
  headers: { Referer: 'https://site.test/' },
  subtitles: { English: { url: 'https://cdn.test/en.srt', type: 'srt' } },
  moreSources: [{ name: 'backup', url: 'https://mirror.test/a.m3u8', type: 'm3u8' }],
};

describe('the edit dialog', () => {
  it('shows the headers, subtitles and other sources as rows', () => {
    const values = formValuesOf(base);
    expect(values.headers).toEqual([{ key: 'Referer', value: 'https://site.test/' }]);
    expect(values.subtitles).toEqual([{ name: 'English', url: 'https://cdn.test/en.srt', type: 'srt' }]);
    expect(values.moreSources).toEqual([{ name: 'backup', url: 'https://mirror.test/a.m3u8', type: 'm3u8' }]);
  });

  it('sends exactly the rows left, and keeps what the form does not show', () => {
    const values = formValuesOf(base);
    const edited = editedBase(base, { ...values, headers: [...values.headers, { key: 'X-Token', value: 'abc' }], subtitles: [], moreSources: [] });
    expect(edited.headers).toEqual({ Referer: 'https://site.test/', 'X-Token': 'abc' });
    expect(edited.subtitles).toBeUndefined();
    expect(edited.moreSources).toBeUndefined();
    expect(edited).toMatchObject({ danmu: 'https://cdn.test/a.xml', parentId: 'f'.repeat(32), name: 'A' });
  });
});
