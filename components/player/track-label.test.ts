import { trackLabel } from './track-label';

describe('trackLabel', () => {
  it('names a track without a title by its language, in the viewer\'s words', () => {
    expect(trackLabel({ name: 'jpn', language: 'jpn' }, 'en')).toBe('Japanese');
    expect(trackLabel({ name: 'eng', language: 'eng' }, 'zh-CN')).toBe('英语');
  });

  it('keeps a title, and a name that is no language', () => {
    expect(trackLabel({ name: 'English 5.1', language: 'eng' }, 'en')).toBe('English 5.1');
    expect(trackLabel({ name: 'ac3 2ch', language: '' }, 'en')).toBe('ac3 2ch');
    expect(trackLabel({ name: 'x-not-a-tag!', language: 'x-not-a-tag!' }, 'en')).toBe('x-not-a-tag!');
  });
});
