/** The sync indicator as a user (and a test or benchmark) sees it: state, signed drift in ms, live updates. */
import { act, render, screen } from '@testing-library/react';
import type { SyncIndicator as Indicator } from '@/lib/sync/correction';
import { SyncIndicator } from './sync-indicator';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('en', key, params);
  return { useT: () => t, t };
});

afterEach(() => jest.useRealTimers());

/** Advances fake time in poll-sized steps, letting React render between them as a browser would. */
function advance(ms: number): void {
  for (let step = 0; step < ms; step += 250) {
    act(() => {
      jest.advanceTimersByTime(Math.min(250, ms - step));
    });
  }
}

describe('SyncIndicator', () => {
  it('shows the state and the signed drift, and exposes both as data attributes', () => {
    render(<SyncIndicator read={() => ({ state: 'correcting', driftMs: -42 })} />);
    const indicator = screen.getByTestId('sync-indicator');
    expect(indicator).toHaveAttribute('data-state', 'correcting');
    expect(indicator).toHaveAttribute('data-drift-ms', '-42');
    expect(indicator).toHaveTextContent('Correcting−42 ms');
  });

  it('shows no drift for a live stream or before there is anything to follow', () => {
    const { rerender } = render(<SyncIndicator read={() => ({ state: 'live', driftMs: null })} />);
    expect(screen.getByTestId('sync-indicator')).toHaveTextContent(/^Live$/);
    rerender(<SyncIndicator read={() => ({ state: 'idle', driftMs: null })} />);
    expect(screen.getByTestId('sync-indicator')).toHaveAttribute('data-drift-ms', '');
    expect(screen.getByTestId('sync-indicator')).toHaveTextContent(/^Waiting to sync$/);
  });

  it('follows the engine as it converges', () => {
    jest.useFakeTimers();
    let current: Indicator = { state: 'out-of-sync', driftMs: -1500 };
    render(<SyncIndicator read={() => current} />);
    expect(screen.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'out-of-sync');
    current = { state: 'in-sync', driftMs: 3 };
    act(() => {
      jest.advanceTimersByTime(300);
    });
    expect(screen.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'in-sync');
    expect(screen.getByTestId('sync-indicator')).toHaveTextContent('In sync+3 ms');
  });

  it('tells screen readers a state once it has held for 2 s, and never a short correction', () => {
    jest.useFakeTimers();
    let current: Indicator = { state: 'in-sync', driftMs: 2 };
    render(<SyncIndicator read={() => current} />);
    const announcement = screen.getByTestId('sync-announcement');
    expect(announcement).toHaveAttribute('aria-live', 'polite');
    expect(announcement).toHaveTextContent(/^$/);
    advance(2100);
    expect(announcement).toHaveTextContent('In sync');
    current = { state: 'correcting', driftMs: 300 };
    advance(1000);
    expect(announcement).toHaveTextContent('In sync');
    current = { state: 'in-sync', driftMs: 1 };
    advance(2100);
    expect(announcement).toHaveTextContent('In sync');
    current = { state: 'out-of-sync', driftMs: -4000 };
    advance(2300);
    expect(announcement).toHaveTextContent('Out of sync');
  });
});
