/**
 * Request bodies decoded as SyncTV's Go server decodes them (./requests.ts): zero values for missing
 * and null fields, unknown keys ignored, and gin's words for a field of the wrong type.
 */
import { z } from 'zod/mini';
import { CreateRoomRequest, DeleteMoviesRequest, EditMovieRequest, MemberPermissionsRequest, MovieBaseRequest, requestErrorText, roomSettingsPatchRequest } from './requests';

function decode<T>(schema: z.ZodMiniType<T, unknown>, body: unknown): T | string {
  const result = z.safeParse(schema, body);
  return result.success ? result.data : requestErrorText(result.error.issues);
}

describe('request schemas', () => {
  it('gives missing and null fields their zero values and ignores unknown keys', () => {
    expect(decode(CreateRoomRequest, { roomName: 'Film night', password: null, extra: 1 })).toEqual({ roomName: 'Film night', password: '' });
    expect(decode(CreateRoomRequest, { settings: { hidden: true } })).toEqual({ roomName: '', password: '', settings: { hidden: true } });
    expect(decode(DeleteMoviesRequest, { ids: null })).toEqual({ ids: [] });
    expect(decode(MemberPermissionsRequest, { id: 'u1' })).toEqual({ id: 'u1', permissions: 0 });
  });

  it("refuses a field of the wrong type with gin's text, naming the field and the Go type", () => {
    expect(decode(CreateRoomRequest, { roomName: 5 })).toBe('json: cannot unmarshal number into field roomName of type string');
    expect(decode(CreateRoomRequest, { settings: [] })).toBe('json: cannot unmarshal array into field settings of type object');
    expect(decode(CreateRoomRequest, { settings: { hidden: 'yes' } })).toBe('json: cannot unmarshal string into field hidden of type bool');
    expect(decode(DeleteMoviesRequest, { ids: 'a' })).toBe('json: cannot unmarshal string into field ids of type []string');
    expect(decode(DeleteMoviesRequest, { ids: ['a', 2] })).toBe('json: cannot unmarshal number into field ids of type string');
    expect(decode(MemberPermissionsRequest, { id: 'u1', permissions: -1 })).toBe('json: cannot unmarshal number into field permissions of type uint32');
    expect(decode(MemberPermissionsRequest, { id: 'u1', permissions: 2 ** 32 })).toBe('json: cannot unmarshal number into field permissions of type uint32');
  });

  it('decodes a MovieBase: headers, subtitles (null entries left out), more sources and the vendor', () => {
    const base = decode(MovieBaseRequest, {
      url: 'https://cdn.test/a.m3u8',
      name: 'Clip',
      headers: { Referer: 'https://a.test' },
      subtitles: { en: { url: 'https://cdn.test/en.vtt', type: 'vtt' }, zh: null },
      moreSources: [{ name: '720p', url: 'https://cdn.test/720.m3u8' }],
      vendorInfo: { vendor: 'bilibili' },
    });
    expect(base).toMatchObject({
      url: 'https://cdn.test/a.m3u8',
      live: false,
      headers: { Referer: 'https://a.test' },
      subtitles: { en: { url: 'https://cdn.test/en.vtt', type: 'vtt' } },
      moreSources: [{ name: '720p', type: '', url: 'https://cdn.test/720.m3u8' }],
      vendorInfo: { vendor: 'bilibili' },
    });
    expect(decode(MovieBaseRequest, { headers: { Referer: 1 } })).toBe('json: cannot unmarshal number into field Referer of type string');
    expect(decode(MovieBaseRequest, { moreSources: {} })).toBe('json: cannot unmarshal into field moreSources of type array');
    expect(decode(MovieBaseRequest, { moreSources: [null] })).toBe('json: cannot unmarshal into field moreSources of type object');
    expect(decode(EditMovieRequest, { id: 'm1', url: 'https://cdn.test/b.mp4' })).toMatchObject({ id: 'm1', url: 'https://cdn.test/b.mp4' });
  });

  it('decodes a room settings patch with only the keys sent, each typed as its default', () => {
    const schema = roomSettingsPatchRequest(['hidden', 'user_default_permissions'], { hidden: false, user_default_permissions: 0, disable_guest: false });
    expect(decode(schema, { hidden: true, user_default_permissions: 7 })).toEqual({ hidden: true, user_default_permissions: 7 });
    expect(decode(schema, { hidden: 1 })).toBe('json: cannot unmarshal number into field hidden of type bool');
  });
});
