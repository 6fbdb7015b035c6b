/**
 * "Add a movie": what the push form sends and refuses (server-contract.md §7.1, §8), and the card
 * that downloads the form only when it is opened.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { pushMovie } from '@/lib/api/movie';
import type { MessageKey } from '@/lib/i18n';
import { translate } from '@/lib/i18n/messages';
import { movieBaseOf, pushProblem } from './movie-push';
import { MoviePushForm } from './movie-push-form';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('zh', key, params);
  return { useT: () => t, t };
});
jest.mock('@/lib/api/movie', () => ({ pushMovie: jest.fn() }));
jest.mock('@/lib/notify', () => ({ notifyError: jest.fn(), notifySuccess: jest.fn() }));
// Counts downloads of the form module; a download can be made to fail (jest caches only a module that loaded).
let mockFormDownloads = 0;
let mockFailNextDownload = false;
jest.mock('./movie-push-fields', () => {
  mockFormDownloads += 1;
  if (mockFailNextDownload) {
    mockFailNextDownload = false;
    throw new Error('Loading chunk movie-push-fields failed');
  }
  return jest.requireActual('./movie-push-fields');
});

const zh = (key: MessageKey, params?: Record<string, string | number>) => translate('zh', key, params);

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

// In file order: the first test sees the form module before jest has cached it.
describe('MoviePushForm', () => {
  beforeEach(() => jest.mocked(pushMovie).mockReset());

  it('downloads the form only when opened; says so when that fails, and loads it on retry', async () => {
    render(<MoviePushForm roomId="room-1" />);
    expect(screen.queryByTestId('movie-push-url')).toBeNull();
    expect(mockFormDownloads).toBe(0);

    mockFailNextDownload = true;
    fireEvent.click(screen.getByTestId('movie-push-open'));
    expect(await screen.findByRole('alert')).toHaveTextContent(zh('cinema.push.loadFailed', { error: 'Loading chunk movie-push-fields failed' }));
    expect(mockFormDownloads).toBe(1);

    fireEvent.click(screen.getByTestId('movie-push-retry'));
    await waitFor(() => expect(screen.getByTestId('movie-push-url')).toHaveFocus());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows only the "Add a movie" button until it is opened, then focuses the URL field', async () => {
    render(<MoviePushForm roomId="room-1" />);
    const open = screen.getByTestId('movie-push-open');
    expect(open).toHaveTextContent(zh('cinema.push.title'));
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('movie-push-url')).toBeNull();

    fireEvent.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getByTestId('movie-push-url')).toHaveFocus());
    expect(screen.getByTestId('movie-push-name')).toBeVisible();
    expect(screen.getByTestId('movie-push-submit')).toHaveTextContent(zh('cinema.push.submit'));
  });

  it('keeps what was typed when closed and opened again', async () => {
    render(<MoviePushForm roomId="room-1" />);
    const open = screen.getByTestId('movie-push-open');
    fireEvent.click(open);
    const url = await screen.findByTestId('movie-push-url');
    fireEvent.change(url, { target: { value: 'https://cdn.test/a.m3u8' } });

    fireEvent.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(url).not.toBeVisible();
    fireEvent.click(open);
    expect(url).toBeVisible();
    expect(url).toHaveValue('https://cdn.test/a.m3u8');
    await waitFor(() => expect(url).toHaveFocus());
  });

  it('pushes the trimmed movie to the room and clears URL and name', async () => {
    jest.mocked(pushMovie).mockResolvedValue(undefined as never);
    render(<MoviePushForm roomId="room-1" />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.change(await screen.findByTestId('movie-push-url'), { target: { value: ' https://cdn.test/a.m3u8 ' } });
    fireEvent.change(screen.getByTestId('movie-push-name'), { target: { value: ' Clip ' } });
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));

    expect(pushMovie).toHaveBeenCalledWith('room-1', { url: 'https://cdn.test/a.m3u8', name: 'Clip', live: false, type: '', proxy: false, parentId: '' });
    expect(screen.getByTestId('movie-push-url')).toHaveValue('');
    expect(screen.getByTestId('movie-push-name')).toHaveValue('');
  });

  it('refuses a URL it cannot play without sending anything', async () => {
    render(<MoviePushForm roomId="room-1" />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.change(await screen.findByTestId('movie-push-url'), { target: { value: 'ftp://cdn.test/a.mp4' } });
    fireEvent.change(screen.getByTestId('movie-push-name'), { target: { value: 'Clip' } });
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));

    expect(screen.getByText(zh('cinema.push.urlScheme'))).toBeInTheDocument();
    expect(screen.getByTestId('movie-push-url')).toHaveValue('ftp://cdn.test/a.mp4');
    expect(pushMovie).not.toHaveBeenCalled();
  });
});
