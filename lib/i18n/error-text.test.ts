/**
 * Errors for people (./error-text.ts): every error text the companion server can send has words in
 * both languages, texts land on the right form field, and only unknown texts are shown raw.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_USER_PASSWORD_LENGTH } from '@/lib/contract/validation';
import { errors } from '@/lib/i18n/messages/errors';
import { ApiError } from '@/lib/api/error';
import { describeError } from './error-text';

let mockLocale: 'zh' | 'en' = 'en';
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  return { t: (key: string, params?: Record<string, string | number>) => translate(mockLocale, key, params) };
});

beforeEach(() => {
  mockLocale = 'en';
});

const ROOT = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The fixed error texts in the server's code and the shared validators, as literals. */
function serverErrorTexts(): string[] {
  const texts = new Set<string>();
  const files = [...sources(path.join(ROOT, 'server')), ...sources(path.join(ROOT, 'lib', 'contract'))];
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    for (const [, text] of code.matchAll(/(?:badRequest|forbidden|unauthorized|notFound|errorFrame|requirePermission\([^)]*?)\(?\s*'([^']+)'\s*\)/g)) texts.add(text);
    for (const [, text] of code.matchAll(/export const [A-Z_]+ = '([a-z][^']*)';/g)) texts.add(text);
    for (const [, text] of code.matchAll(/new HttpError\(\d+, '([^']+)'\)/g)) texts.add(text);
    // Tables of texts: `export const RoomAdminError = { key: 'text', … } as const`.
    for (const [, block] of code.matchAll(/export const \w+Error = \{([\s\S]*?)\} as const/g)) {
      for (const [, text] of block.matchAll(/: '([^']+)',/g)) texts.add(text);
    }
    if (file.endsWith('validation.ts')) for (const [, text] of code.matchAll(/return '([a-z][^']*)';/g)) texts.add(text);
  }
  return [...texts].filter((text) => !/^(all|null|array|object|no-cache|public, max-age=.*|jwt-secret|vendor-secret|synctv\.db|init\.mp4|guest|root|\/api\/room\/ws)$/.test(text));
}

describe('the error catalogue', () => {
  it('has both languages for every key', () => {
    expect(Object.keys(errors.en).sort()).toEqual(Object.keys(errors.zh).sort());
  });

  it('names the shortest new password in both languages', () => {
    for (const locale of ['en', 'zh'] as const) expect(errors[locale]['contract.password too short']).toContain(String(MIN_USER_PASSWORD_LENGTH));
  });

  it('knows every error text in the companion server and the shared validators', () => {
    const texts = serverErrorTexts();
    expect(texts.length).toBeGreaterThan(60);
    // Known: it reads as something else than the raw text.
    const unknown = texts.filter((text) => describeError(new ApiError(400, text, '/api/x')).message === text);
    expect(unknown).toEqual([]);
  });
});

describe('describeError', () => {
  it('reads a contract text in the UI language and names its field', () => {
    expect(describeError(new ApiError(403, 'password incorrect', '/api/user/login'))).toEqual({
      message: 'Wrong password',
      field: 'password',
      text: 'password incorrect',
      status: 403,
    });
    mockLocale = 'zh';
    expect(describeError(new ApiError(400, 'room already exists', '/api/room/create'))).toMatchObject({
      message: '这个房间名已被使用',
      field: 'roomName',
    });
  });

  it('reads wrapped and variable texts by their known part', () => {
    expect(describeError(new ApiError(400, 'register client error: room not found', '/api/room/ws')).message).toBe("That room doesn't exist");
    expect(describeError(new ApiError(400, 'unsupported scheme: ftp', '/api/room/movie/push'))).toMatchObject({ field: 'url' });
    expect(describeError(new ApiError(400, 'setting smtp_port not found', '/api/admin/settings')).message).toBe('There is no such setting');
    expect(describeError(new ApiError(400, 'json: cannot unmarshal string into field ids of type array', '/x')).message).toBe('The request was malformed');
    // A chat refusal arrives as a WebSocket ERROR frame's text.
    expect(describeError(new Error('send chat message error: no permission')).message).toBe("You don't have permission to chat in this room");
  });

  it('says what happened when the server sent no text, and shows an unknown text as it is', () => {
    expect(describeError(new ApiError(0, 'Request failed due to a network error: GET /api', '/api', { source: 'network' })).message).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
    expect(describeError(new ApiError(503, 'Service Unavailable', '/api', { source: 'status' })).message).toBe(
      'The server had a problem (HTTP 503). Please try again later.',
    );
    expect(describeError(new ApiError(429, 'Too Many Requests', '/api', { source: 'status' })).message).toBe(
      'Too many requests. Please wait a moment and try again.',
    );
    expect(describeError(new ApiError(500, 'database is locked', '/api/room/info'))).toEqual({ message: 'database is locked', status: 500 });
  });
});
