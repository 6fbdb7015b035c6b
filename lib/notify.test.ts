/**
 * lib/notify loads sonner on first use (issue 4 size budgets). These tests use a stand-in sonner
 * module to see when it is imported and which toasts reach it, in which order.
 */
import { ApiError } from '@/lib/api/error';

// jotai (behind lib/i18n) ships ESM only, which this jest setup does not transform; the catalogue is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  return { t: (key: string) => translate('zh', key) };
});

type NotifyModule = typeof import('./notify');

const shown: string[] = [];
const fakeToast = {
  error: (title: string, options: unknown) => shown.push(`error ${title} ${JSON.stringify(options)}`),
  success: (title: string, options: unknown) => shown.push(`success ${title} ${JSON.stringify(options)}`),
  info: (title: string, options: unknown) => shown.push(`info ${title} ${JSON.stringify(options)}`),
  warning: (title: string, options: unknown) => shown.push(`warning ${title} ${JSON.stringify(options)}`),
};
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
      'error 错误 {"description":"room not found","duration":4500}',
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
