/**
 * "Add a movie": what the push form sends and refuses (docs/contract.md §7.1, §8), and the card
 * that downloads the form only when it is opened.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { pushMovie, pushMovies } from '@/hooks/data/movies';
import type { MessageKey } from '@/lib/i18n';
import { translate } from '@/lib/i18n/messages';
import { bulkBases, movieBaseOf, nameFromUrl, pushProblem, rowProblems } from './movie-push';
import { AddMovieCard } from './add-movie-card';
import '@/lib/i18n/messages/movie-form';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('zh', key, params);
  return { useT: () => t, t };
});
jest.mock('@/hooks/data/movies', () => ({ pushMovie: jest.fn(), pushMovies: jest.fn() }));
jest.mock('@/lib/notify', () => ({ notifyError: jest.fn(), notifySuccess: jest.fn() }));
// Counts downloads of the form module; a download can be made to fail (jest caches only a module that loaded).
let mockFormDownloads = 0;
let mockFailNextDownload = false;
jest.mock('./movie-push-form', () => {
  mockFormDownloads += 1;
  if (mockFailNextDownload) {
    mockFailNextDownload = false;
    throw new Error('Loading chunk movie-push-form failed');
  }
  return jest.requireActual('./movie-push-form');
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
    expect(pushProblem(movieBaseOf({ url: '', name: 'a', live: false }))).toEqual({ field: 'url', key: 'moviePush.urlRequired' });
    expect(pushProblem(movieBaseOf({ url: 'ftp://x/a.mp4', name: 'a', live: false }))).toEqual({ field: 'url', key: 'moviePush.urlScheme' });
    expect(pushProblem(movieBaseOf({ url: 'magnet:?xt=urn:btih:abc', name: 'a', live: false }))).toBeNull();
  });

  it('requires a name', () => {
    expect(pushProblem(movieBaseOf({ url: 'http://x/a.mp4', name: '  ', live: false }))).toEqual({ field: 'name', key: 'moviePush.nameRequired' });
  });

  it('refuses a URL over 8192 bytes', () => {
    const url = `https://x.test/${'a'.repeat(8200)}`;
    expect(pushProblem(movieBaseOf({ url, name: 'a', live: false }))).toEqual({ field: 'url', key: 'moviePush.urlTooLong' });
  });
});

// In file order: the first test sees the form module before jest has cached it.
describe('AddMovieCard', () => {
  beforeEach(() => jest.mocked(pushMovie).mockReset());

  it('downloads the form only when opened; says so when that fails, and loads it on retry', async () => {
    render(<AddMovieCard roomId="room-1" />);
    expect(screen.queryByTestId('movie-push-url')).toBeNull();
    expect(mockFormDownloads).toBe(0);

    mockFailNextDownload = true;
    fireEvent.click(screen.getByTestId('movie-push-open'));
    expect(await screen.findByRole('alert')).toHaveTextContent(zh('cinema.push.loadFailed', { error: 'Loading chunk movie-push-form failed' }));
    expect(mockFormDownloads).toBe(1);

    fireEvent.click(screen.getByTestId('movie-push-retry'));
    await waitFor(() => expect(screen.getByTestId('movie-push-url')).toHaveFocus());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows only the "Add a movie" button until it is opened, then focuses the URL field', async () => {
    render(<AddMovieCard roomId="room-1" />);
    const open = screen.getByTestId('movie-push-open');
    expect(open).toHaveTextContent(zh('cinema.push.title'));
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('movie-push-url')).toBeNull();

    fireEvent.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getByTestId('movie-push-url')).toHaveFocus());
    expect(screen.getByTestId('movie-push-name')).toBeVisible();
    expect(screen.getByTestId('movie-push-submit')).toHaveTextContent(zh('moviePush.submit'));
  });

  it('opens on a request made before it was on the page (the empty player\'s "Add a movie" clicked while the card\'s code came down)', async () => {
    // jsdom does not lay out, so it has no scrollIntoView; the card asks for it to come into view.
    const scrollIntoView = jest.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    const handled = jest.fn();
    const { rerender } = render(<AddMovieCard roomId="room-1" openRequested onOpenRequestHandled={handled} />);
    expect(screen.getByTestId('movie-push-open')).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getByTestId('movie-push-url')).toHaveFocus());
    expect(handled).toHaveBeenCalledTimes(1);
    expect(scrollIntoView).toHaveBeenCalledTimes(1);

    // Asked again once handled: the field takes the focus again.
    rerender(<AddMovieCard roomId="room-1" openRequested={false} onOpenRequestHandled={handled} />);
    screen.getByTestId('movie-push-name').focus();
    rerender(<AddMovieCard roomId="room-1" openRequested onOpenRequestHandled={handled} />);
    await waitFor(() => expect(screen.getByTestId('movie-push-url')).toHaveFocus());
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('keeps what was typed when closed and opened again', async () => {
    render(<AddMovieCard roomId="room-1" />);
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
    render(<AddMovieCard roomId="room-1" />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.change(await screen.findByTestId('movie-push-url'), { target: { value: ' https://cdn.test/a.m3u8 ' } });
    fireEvent.change(screen.getByTestId('movie-push-name'), { target: { value: ' Clip ' } });
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));

    expect(pushMovie).toHaveBeenCalledWith('room-1', { url: 'https://cdn.test/a.m3u8', name: 'Clip', live: false, type: '', proxy: false, parentId: '' });
    expect(screen.getByTestId('movie-push-url')).toHaveValue('');
    expect(screen.getByTestId('movie-push-name')).toHaveValue('');
  });

  it('names a movie after its file when the name is left empty, and says so before sending; the hall hears what was added', async () => {
    const stored = { id: 'm'.repeat(32), creatorId: 'c'.repeat(32), base: { url: 'https://cdn.test/show/Episode%201.mp4', name: 'Episode 1' } };
    jest.mocked(pushMovie).mockResolvedValue(stored as never);
    const onPushed = jest.fn();
    render(<AddMovieCard roomId="room-1" onPushed={onPushed} />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.change(await screen.findByTestId('movie-push-url'), { target: { value: 'https://cdn.test/show/Episode%201.mp4' } });
    expect(screen.getByTestId('movie-push-name')).toHaveAttribute('placeholder', 'Episode 1');
    expect(screen.getByText(zh('moviePush.nameDefault', { name: 'Episode 1' }))).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));
    expect(pushMovie).toHaveBeenCalledWith('room-1', expect.objectContaining({ url: 'https://cdn.test/show/Episode%201.mp4', name: 'Episode 1' }));
    expect(onPushed).toHaveBeenCalledWith([stored]);
  });

  it('refuses a URL it cannot play without sending anything', async () => {
    render(<AddMovieCard roomId="room-1" />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.change(await screen.findByTestId('movie-push-url'), { target: { value: 'ftp://cdn.test/a.mp4' } });
    fireEvent.change(screen.getByTestId('movie-push-name'), { target: { value: 'Clip' } });
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));

    expect(screen.getByText(zh('moviePush.urlScheme'))).toBeInTheDocument();
    expect(screen.getByTestId('movie-push-url')).toHaveValue('ftp://cdn.test/a.mp4');
    expect(pushMovie).not.toHaveBeenCalled();
  });
});

describe('advanced options and bulk push', () => {
  const fields = { url: 'https://x.test/a.mp4', name: 'a', live: false };

  it('sends headers, subtitles and other sources only when filled in, without blank rows', () => {
    expect(
      movieBaseOf({
        ...fields,
        type: 'mp4',
        proxy: true,
        headers: [
          { key: ' Referer ', value: ' https://x.test/ ' },
          { key: '', value: '' },
        ],
        subtitles: [{ name: 'English', url: 'https://x.test/en.srt', type: 'srt' }],
        moreSources: [{ name: '', url: '', type: '' }],
      }),
    ).toEqual({
      url: 'https://x.test/a.mp4',
      name: 'a',
      live: false,
      type: 'mp4',
      proxy: true,
      parentId: '',
      headers: { Referer: 'https://x.test/' },
      subtitles: { English: { url: 'https://x.test/en.srt', type: 'srt' } },
    });
  });

  it('finds incomplete, duplicate and unplayable rows, at their field', () => {
    expect(
      rowProblems({
        ...fields,
        headers: [
          { key: 'Referer', value: '' },
          { key: 'Cookie', value: 'a=1' },
          { key: 'cookie', value: 'b=2' },
        ],
        subtitles: [
          { name: '', url: 'https://x.test/a.srt', type: 'srt' },
          { name: 'zh', url: 'javascript:alert(1)', type: 'ass' },
        ],
        moreSources: [{ name: 'HD', url: 'https://x.test/hd.m3u8', type: 'm3u8' }],
      }),
    ).toEqual([
      { path: 'headers.0.value', key: 'moviePush.headerIncomplete' },
      { path: 'headers.2.key', key: 'moviePush.headerDuplicate' },
      { path: 'subtitles.0.name', key: 'moviePush.rowNameRequired' },
      { path: 'subtitles.1.url', key: 'moviePush.rowUrl' },
    ]);
  });

  it('reads a bulk push a line at a time, naming movies from their file when no name is given', () => {
    const result = bulkBases('https://x.test/show/ep1.mp4\n\n  Finale | https://x.test/ep9.m3u8 \nhttps://x.test/season2/index.m3u8', { live: false, type: '', proxy: false });
    expect(result).toEqual({
      bases: [
        expect.objectContaining({ name: 'ep1', url: 'https://x.test/show/ep1.mp4' }),
        expect.objectContaining({ name: 'Finale', url: 'https://x.test/ep9.m3u8' }),
        expect.objectContaining({ name: 'season2', url: 'https://x.test/season2/index.m3u8' }),
      ],
    });
    expect(bulkBases('https://x.test/a.mp4\nftp://x.test/b.mp4', { live: false })).toEqual({ line: 2, key: 'moviePush.urlScheme' });
    expect(bulkBases('  \n ', { live: false })).toEqual({ line: 0, key: 'moviePush.bulkEmpty' });
    expect(bulkBases(Array.from({ length: 101 }, (_, i) => `https://x.test/${i}.mp4`).join('\n'), { live: false })).toEqual({ line: 101, key: 'moviePush.bulkTooMany' });
    expect(nameFromUrl('https://x.test/%E7%AC%AC1%E9%9B%86.mp4')).toBe('第1集');
    // A page, or a path without a file name, is named after its host.
    expect(nameFromUrl('https://www.example.com/watch?v=1')).toBe('www.example.com');
    expect(nameFromUrl('https://cdn.example.com/')).toBe('cdn.example.com');
    expect(nameFromUrl('not a url')).toBe('');
  });

  it('pushes several movies from the "several at once" mode into the open folder', async () => {
    jest.mocked(pushMovies).mockResolvedValue([]);
    render(<AddMovieCard roomId="room-1" parentId={'f'.repeat(32)} />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.click(await screen.findByTestId('movie-push-mode-many'));
    fireEvent.change(screen.getByTestId('movie-push-bulk'), { target: { value: 'https://x.test/a.mp4\nB | https://x.test/b.mp4' } });
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));
    expect(pushMovies).toHaveBeenCalledWith('room-1', [
      { url: 'https://x.test/a.mp4', name: 'a', live: false, type: '', proxy: false, parentId: 'f'.repeat(32) },
      { url: 'https://x.test/b.mp4', name: 'B', live: false, type: '', proxy: false, parentId: 'f'.repeat(32) },
    ]);
    expect(screen.getByTestId('movie-push-bulk')).toHaveValue('');
  });

  it('shows a bad line of a bulk push at the field and sends nothing', async () => {
    jest.mocked(pushMovies).mockReset();
    render(<AddMovieCard roomId="room-1" />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.click(await screen.findByTestId('movie-push-mode-many'));
    fireEvent.change(screen.getByTestId('movie-push-bulk'), { target: { value: 'https://x.test/a.mp4\nnot a url' } });
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));
    expect(screen.getByRole('alert')).toHaveTextContent(zh('moviePush.bulkLine', { line: 2, problem: zh('moviePush.urlScheme') }));
    expect(pushMovies).not.toHaveBeenCalled();
  });

  it('shows an incomplete header at its row and sends nothing', async () => {
    render(<AddMovieCard roomId="room-1" />);
    fireEvent.click(screen.getByTestId('movie-push-open'));
    fireEvent.change(await screen.findByTestId('movie-push-url'), { target: { value: 'https://x.test/a.mp4' } });
    fireEvent.change(screen.getByTestId('movie-push-name'), { target: { value: 'A' } });
    fireEvent.click(screen.getByTestId('movie-push-add-headers'));
    fireEvent.change(screen.getByLabelText(zh('moviePush.headerKey')), { target: { value: 'Referer' } });
    await act(async () => fireEvent.click(screen.getByTestId('movie-push-submit')));
    expect(screen.getByRole('alert')).toHaveTextContent(zh('moviePush.headerIncomplete'));
    expect(pushMovie).not.toHaveBeenCalled();
  });
});
