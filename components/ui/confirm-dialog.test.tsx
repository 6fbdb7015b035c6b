/** The movie-action confirmation as a user meets it: appears on demand, traps focus, cancels, waits for the action. */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ConfirmDialogProps } from './confirm-dialog';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('en', key, params);
  return { useT: () => t, t };
});

// Counts evaluations of the Radix Dialog package, i.e. whether the hall has downloaded it yet.
let mockRadixLoads = 0;
jest.mock('@radix-ui/react-dialog', () => {
  mockRadixLoads += 1;
  return jest.requireActual('@radix-ui/react-dialog');
});

// Required after the mocks above so that an eager import of Radix would be counted.
const { ConfirmDialog } = require('./confirm-dialog') as typeof import('./confirm-dialog');

function props(overrides: Partial<ConfirmDialogProps> = {}): ConfirmDialogProps {
  return {
    open: false,
    title: 'Delete movie?',
    description: 'Big Buck Bunny will be removed from the list.',
    confirmLabel: 'Delete',
    onConfirm: jest.fn(() => Promise.resolve()),
    onOpenChange: jest.fn(),
    ...overrides,
  };
}

describe('ConfirmDialog', () => {
  it('loads Radix only when first opened, then shows the title, description and focuses inside', async () => {
    const closed = props();
    const { rerender } = render(<ConfirmDialog {...closed} />);
    expect(mockRadixLoads).toBe(0);
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();

    rerender(<ConfirmDialog {...closed} open />);
    const dialog = await screen.findByRole('dialog', { name: 'Delete movie?' });
    expect(mockRadixLoads).toBe(1);
    expect(dialog).toHaveAttribute('data-testid', 'confirm-dialog');
    expect(dialog).toHaveAccessibleDescription('Big Buck Bunny will be removed from the list.');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
  });

  it('opens when it is mounted already open', async () => {
    render(<ConfirmDialog {...props({ open: true })} />);
    expect(await screen.findByTestId('confirm-dialog')).toBeInTheDocument();
  });

  it('asks to close on Cancel and on Escape without running the action', async () => {
    const p = props({ open: true });
    render(<ConfirmDialog {...p} />);
    fireEvent.click(await screen.findByTestId('confirm-cancel'));
    expect(p.onOpenChange).toHaveBeenLastCalledWith(false);
    fireEvent.keyDown(screen.getByTestId('confirm-dialog'), { key: 'Escape' });
    expect(p.onOpenChange).toHaveBeenCalledTimes(2);
    expect(p.onConfirm).not.toHaveBeenCalled();
  });

  it('stays open and busy while the action runs, then closes', async () => {
    let finish!: () => void;
    const p = props({ open: true, onConfirm: jest.fn(() => new Promise<void>((resolve) => (finish = resolve))) });
    render(<ConfirmDialog {...p} />);
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    expect(p.onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('confirm-cancel')).toBeDisabled();
    fireEvent.keyDown(screen.getByTestId('confirm-dialog'), { key: 'Escape' });
    expect(p.onOpenChange).not.toHaveBeenCalled();

    await act(async () => finish());
    expect(p.onOpenChange).toHaveBeenCalledWith(false);
    expect(screen.getByTestId('confirm-cancel')).not.toBeDisabled();
  });

  it('is gone when closed again', async () => {
    const p = props({ open: true });
    const { rerender } = render(<ConfirmDialog {...p} />);
    await screen.findByTestId('confirm-dialog');
    rerender(<ConfirmDialog {...p} open={false} />);
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
  });
});
