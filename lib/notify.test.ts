/**
 * lib/notify loads sonner (and the error catalogue) on first use (size budgets). These tests use a
 * stand-in sonner module to see when it is imported and which toasts reach it, in which order, in
 * which words, and that a repeated toast replaces the one shown instead of stacking.
 */
import { ApiError } from '@/lib/api/error';

// jotai (behind lib/i18n) ships ESM only, which this jest setup does not transform; the catalogue is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  return { t: (key: string, params?: Record<string, string | number>) => translate('zh', key, params) };
});

type NotifyModule = typeof import('./notify');

const shown: string[] = [];
const ids: string[] = [];
/** Records `kind title {description, duration}`, and the toast id apart. */
const record = (kind: string) => (title: string, { id, ...options }: { id: string }) => {
  ids.push(id);
  shown.push(`${kind} ${title} ${JSON.stringify(options)}`);
};
const fakeToast = { error: record('error'), success: record('success'), info: record('info'), warning: record('warning') };
const FakeToaster = () => null;
let sonnerImports = 0;
let failNextImport = false;

/** A fresh lib/notify with a stand-in sonner whose import can be made to fail once. */
function freshNotify(): NotifyModule {
  jest.resetModules();
  jest.doMock('sonner', () => {
    sonnerImports += 1;
    if (failNextImport) {
      failNextImport = false;
      throw new Error('ChunkLoadError: loading chunk sonner failed');
    }
    return { toast: fakeToast, Toaster: FakeToaster };
  });
  return jest.requireActual<NotifyModule>('./notify');
}

/** Lets a pending dynamic import settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  shown.length = 0;
  ids.length = 0;
  sonnerImports = 0;
  failNextImport = false;
});

describe('notify*: sonner on first use', () => {
  it('does not import sonner until the first notification', async () => {
    const notify = freshNotify();
    await settle();
    expect(sonnerImports).toBe(0);
    expect(notify.loadedSonner()).toBeNull();

    notify.notifySuccess('Saved');
    await settle();
    expect(sonnerImports).toBe(1);
    expect(notify.loadedSonner()).toMatchObject({ Toaster: FakeToaster });
  });

  it('shows every call made while sonner loads, in call order, with the 4500 ms duration', async () => {
    const notify = freshNotify();
    notify.notifyInfo('Room created', 'Share the link');
    notify.notifySuccess('Joined');
    notify.notifyError(new ApiError(404, 'room not found', '/api/room/check'));
    notify.notifyWarning('Paused by host');
    expect(shown).toEqual([]);

    await settle();
    expect(shown).toEqual([
      'info Room created {"description":"Share the link","duration":4500}',
      'success Joined {"duration":4500}',
      'error 错误 {"description":"房间不存在","duration":4500}',
      'warning Paused by host {"duration":4500}',
    ]);
    expect(sonnerImports).toBe(1);
    expect(notify.NOTIFY_DURATION_MS).toBe(4500);
  });

  it('shows later notifications at once, with the module already loaded', async () => {
    const notify = freshNotify();
    notify.notifyInfo('first');
    await settle();
    shown.length = 0;

    notify.notifyError('plain string failure');
    expect(shown).toEqual(['error 错误 {"description":"plain string failure","duration":4500}']);
    expect(sonnerImports).toBe(1);
  });

  it('tells subscribers once sonner has loaded, after the queued toasts were handed over', async () => {
    const notify = freshNotify();
    const seen: string[][] = [];
    const unsubscribe = notify.subscribeLoadedSonner(() => seen.push([...shown]));
    notify.notifySuccess('one');
    notify.notifySuccess('two');
    await settle();
    expect(seen).toEqual([['success one {"duration":4500}', 'success two {"duration":4500}']]);

    unsubscribe();
    notify.notifySuccess('three');
    await settle();
    expect(seen).toHaveLength(1);
  });

  it('keeps toasts when the import fails, logs it, and shows them with the next notification', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const notify = freshNotify();
      failNextImport = true;
      notify.notifyError(new Error('offline'));
      await settle();
      expect(shown).toEqual([]);
      expect(notify.loadedSonner()).toBeNull();
      expect(consoleError).toHaveBeenCalledWith('Could not load the notification module (sonner)', expect.any(Error));

      notify.notifyInfo('back online');
      await settle();
      expect(sonnerImports).toBe(2);
      expect(shown).toEqual(['error 错误 {"description":"offline","duration":4500}', 'info back online {"duration":4500}']);
    } finally {
      consoleError.mockRestore();
    }
  });
});

describe('notifyError: words for people, once', () => {
  it('reads a contract text from the catalogue, a wrapped one too, and an unknown text as it is', async () => {
    const notify = freshNotify();
    notify.notifyError(new ApiError(403, 'password error', '/api/room/login'));
    notify.notifyError(new ApiError(403, 'push movie error: no permission', '/api/room/movie/push'));
    notify.notifyError(new ApiError(400, 'unsupported scheme: ftp', '/api/room/movie/push'));
    notify.notifyError(new ApiError(500, 'disk on fire', '/api/room/info'));
    await settle();
    expect(shown).toEqual([
      'error 错误 {"description":"房间密码错误","duration":4500}',
      'error 错误 {"description":"你没有添加影片的权限","duration":4500}',
      'error 错误 {"description":"不支持这种链接协议（可用 http、https 或 magnet）","duration":4500}',
      'error 错误 {"description":"disk on fire","duration":4500}',
    ]);
  });

  it('says what happened when there is no server text: no connection, an HTTP status', async () => {
    const notify = freshNotify();
    // The ApiError class of the fresh module registry, which lib/notify's error texts check against.
    const { ApiError } = jest.requireActual<typeof import('@/lib/api/error')>('@/lib/api/error');
    notify.notifyError(new ApiError(0, 'Request failed due to a network error: GET /api/room/hot', '/api/room/hot', { source: 'network' }));
    notify.notifyError(new ApiError(502, 'Bad Gateway', '/api/room/hot', { source: 'status' }));
    await settle();
    expect(shown).toEqual([
      'error 错误 {"description":"无法连接服务器，请检查网络后重试","duration":4500}',
      'error 错误 {"description":"服务器出错了（HTTP 502），请稍后再试","duration":4500}',
    ]);
  });

  it('gives a repeat of the same notification the same toast id, so it replaces the shown one', async () => {
    const notify = freshNotify();
    const { ApiError } = jest.requireActual<typeof import('@/lib/api/error')>('@/lib/api/error');
    notify.notifyError(new ApiError(0, 'x', '/api/a', { source: 'network' }));
    notify.notifyError(new ApiError(0, 'y', '/api/b', { source: 'network' }));
    notify.notifyError(new ApiError(404, 'room not found', '/api/room/check'));
    notify.notifySuccess('Joined');
    notify.notifySuccess('Joined');
    await settle();
    expect(ids[0]).toBe(ids[1]);
    expect(new Set(ids).size).toBe(3);
  });
});
