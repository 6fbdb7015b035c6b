/** The mobile menu as a user meets it: one press opens it (its code loads then), focus moves in, it closes. */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import type { MenuEntry } from '@/config/menu';
import { EARLY_MENU_ATTRIBUTE, EARLY_INPUT_SCRIPT, takeEarlyMenuTap } from './early-input';

// jotai ships ESM only, which this jest setup does not transform; the header reads only "no user" from it.
jest.mock('jotai', () => ({ atom: (init: unknown) => ({ init }), useAtomValue: () => null }));
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('en', key, params);
  return { useT: () => t, t };
});
jest.mock('./header-controls', () => ({ LocaleToggle: () => null, ThemeToggle: () => null }));

let mockPathname = '/';
jest.mock('next/navigation', () => ({ usePathname: () => mockPathname }));

const mockEntries: MenuEntry[] = [
  { name: 'home', href: '/', title: 'route.home' },
  { name: 'rooms', href: '/rooms', title: 'route.rooms' },
];
jest.mock('@/hooks/use-menu', () => ({ useMenu: () => ({ entries: mockEntries, activeName: 'home' }) }));

// Counts evaluations of the panel module, i.e. whether the page has downloaded its code yet.
let mockSheetLoads = 0;
jest.mock('@/components/ui/sheet', () => {
  mockSheetLoads += 1;
  return jest.requireActual('@/components/ui/sheet');
});

// Required after the mocks above so that an eager import of the panel would count (and fail the first test).
const { Header } = require('./header') as typeof import('./header');

const toggle = () => screen.getByTestId('menu-toggle');

/** Opens the menu with one press and waits for the panel. */
async function openMenu(): Promise<HTMLElement> {
  fireEvent.click(toggle());
  return screen.findByRole('dialog', { name: 'Menu' });
}

beforeEach(() => {
  mockPathname = '/';
});

describe('Header mobile menu', () => {
  it('loads the panel code on the first press, not with the page, and opens with that one press', async () => {
    render(<Header />);
    expect(mockSheetLoads).toBe(0);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');

    const dialog = await openMenu();
    expect(mockSheetLoads).toBe(1);
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    expect(dialog.querySelector('[data-testid="nav-rooms"]')).toHaveAttribute('href', '/rooms');
  });

  it('closes on Escape and reopens at once with the same single press', async () => {
    render(<Header />);
    const dialog = await openMenu();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');

    fireEvent.click(toggle());
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
  });

  it('closes with the close button', async () => {
    render(<Header />);
    await openMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes when a link inside is followed', async () => {
    render(<Header />);
    const dialog = await openMenu();
    const link = dialog.querySelector<HTMLAnchorElement>('[data-testid="nav-rooms"]');
    expect(link).not.toBeNull();
    // Next's router is not mounted here; stop jsdom's own page load after the app's handlers ran.
    const stopPageLoad = (event: Event) => event.preventDefault();
    document.addEventListener('click', stopPageLoad);
    fireEvent.click(link!);
    document.removeEventListener('click', stopPageLoad);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes when the route changes (back/forward)', async () => {
    const { rerender } = render(<Header />);
    await openMenu();
    mockPathname = '/rooms';
    await act(async () => rerender(<Header />));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens once hydrated when the button was pressed before the page had hydrated, and only then', async () => {
    // The page as it arrives: the inline head script has run, the prerendered button has no handler.
    window.eval(EARLY_INPUT_SCRIPT);
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(<Header />);
    const early = container.querySelector(`[${EARLY_MENU_ATTRIBUTE}]`);
    expect(early).toBe(container.querySelector('[data-testid="menu-toggle"]'));
    fireEvent.click(early!);

    render(<Header />, { container, hydrate: true });
    await screen.findByRole('dialog', { name: 'Menu' });
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    // The script stopped listening: a later tap anywhere is the header's own business.
    expect(takeEarlyMenuTap()).toBe(false);
  });

  it('stays closed after hydrating when nothing was pressed before', async () => {
    window.eval(EARLY_INPUT_SCRIPT);
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(<Header />);
    render(<Header />, { container, hydrate: true });
    await act(async () => {});
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  });
});
