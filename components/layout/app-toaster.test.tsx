/** AppToaster mounts sonner's Toaster only once a notification needs it (size budgets). */
import { act, render, screen, waitFor } from '@testing-library/react';
import { notifyError, notifyInfo, notifySuccess } from '@/lib/notify';
import { AppToaster } from './app-toaster';

// jotai (behind lib/i18n and the dark-mode hook) ships ESM only, which this jest setup does not
// transform; the catalogue is real and the dark-mode flag is set by each test.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  return { t: (key: string) => translate('zh', key) };
});
let mockIsDark: boolean | null = null;
jest.mock('@/hooks/use-dark-mode', () => ({ useDarkMode: () => [mockIsDark, () => undefined] }));

let mockSonnerImports = 0;
jest.mock('sonner', () => {
  mockSonnerImports += 1;
  return jest.requireActual('sonner');
});

const renderToaster = () => render(<AppToaster />);

const toaster = () => document.querySelector<HTMLElement>('[data-sonner-toaster]');

/** The viewport jsdom pretends to have: a phone (sonner's phone layout) or not. */
let phone = false;
const queryListeners = new Set<() => void>();

beforeEach(() => {
  mockIsDark = false;
  phone = false;
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query === '(max-width: 600px)' && phone;
    },
    addEventListener: (_type: string, listener: () => void) => queryListeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => queryListeners.delete(listener),
  })) as unknown as typeof window.matchMedia;
});

describe('AppToaster', () => {
  it('renders nothing and loads no sonner before the first notification', async () => {
    const { container } = renderToaster();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(container).toBeEmptyDOMElement();
    expect(toaster()).toBeNull();
    expect(mockSonnerImports).toBe(0);
  });

  it('loads sonner on the first notifications and shows all of them, newest on top, centred below the header', async () => {
    renderToaster();
    act(() => {
      notifyInfo('Room created', 'Share the link');
      notifyError(new Error('room not found'));
    });

    // In words for people, from the error catalogue that loads with sonner.
    expect(await screen.findByText('房间不存在')).toBeInTheDocument();
    expect(screen.getByText('错误')).toBeInTheDocument();
    expect(screen.getByText('Room created')).toBeInTheDocument();
    expect(screen.getByText('Share the link')).toBeInTheDocument();
    expect(mockSonnerImports).toBe(1);

    const list = toaster();
    expect(list).toHaveAttribute('data-y-position', 'top');
    expect(list).toHaveAttribute('data-x-position', 'center');
    expect(list).toHaveAttribute('data-sonner-theme', 'light');
    expect(list?.style.getPropertyValue('--offset-top')).toBe('68px');

    const toasts = Array.from(document.querySelectorAll<HTMLElement>('[data-sonner-toast]'));
    expect(toasts.map((toast) => [toast.dataset.type, toast.dataset.index, toast.dataset.richColors])).toEqual([
      ['error', '0', 'true'],
      ['info', '1', 'true'],
    ]);
    expect(screen.getAllByRole('button', { name: 'Close toast' })).toHaveLength(2);
  });

  it('shows a later notification right away, without loading sonner again', async () => {
    renderToaster();
    await waitFor(() => expect(toaster()).not.toBeNull());
    act(() => notifySuccess('Password changed'));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(mockSonnerImports).toBe(1);
  });

  it('follows dark mode, also when it is switched while the toaster is shown', async () => {
    mockIsDark = true;
    const { rerender } = renderToaster();
    await waitFor(() => expect(toaster()).toHaveAttribute('data-sonner-theme', 'dark'));

    mockIsDark = false;
    rerender(<AppToaster />);
    await waitFor(() => expect(toaster()).toHaveAttribute('data-sonner-theme', 'light'));
  });

  it('moves to the bottom on a phone, clear of the header and the title row', async () => {
    renderToaster();
    act(() => notifyInfo('Copied'));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(toaster()).toHaveAttribute('data-y-position', 'top');
    act(() => {
      phone = true;
      queryListeners.forEach((listener) => listener());
    });
    expect(toaster()).toHaveAttribute('data-y-position', 'bottom');
    expect(toaster()?.style.getPropertyValue('--mobile-offset-bottom')).toBe('16px');
  });
});
