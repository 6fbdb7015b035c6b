/** A room card's "created" time as a reader sees it: relative text in the UI language, full date on hover. */
import { render, screen } from '@testing-library/react';
import { RelativeTime } from './relative-time';

let mockNow: number | null = null;
let mockTag: 'zh-CN' | 'en' = 'en';
jest.mock('@/hooks/use-now', () => ({ useNow: () => mockNow }));
// jotai (behind the language hooks) ships ESM only, which this jest setup does not transform.
jest.mock('@/lib/i18n', () => ({ useDateLocale: () => mockTag }));

const now = new Date(2025, 5, 15, 12, 0, 0).getTime();
const MIN = 60_000;

beforeEach(() => {
  mockNow = now;
  mockTag = 'en';
});

describe('RelativeTime', () => {
  it('shows the distance in English with the full date in the tooltip', () => {
    const created = now - 5 * MIN;
    render(<RelativeTime timeMs={created} />);
    const time = screen.getByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('dateTime', new Date(created).toISOString());
    expect(time).toHaveAttribute('title', new Date(created).toLocaleString('en'));
    expect(time.getAttribute('title')).toMatch(/2025/);
  });

  it('shows Chinese text and a Chinese full date when the language is zh', () => {
    mockTag = 'zh-CN';
    const created = now - 3 * 24 * 60 * MIN;
    render(<RelativeTime timeMs={created} />);
    const time = screen.getByText('3天前');
    expect(time).toHaveAttribute('title', new Date(created).toLocaleString('zh-CN'));
    expect(time.getAttribute('title')).toMatch(/^2025\/6\/12/);
  });

  it('reads "now" for a time slightly in the future (server clock ahead)', () => {
    render(<RelativeTime timeMs={now + 2 * MIN} />);
    expect(screen.getByText('now')).toBeInTheDocument();
  });

  it('renders nothing before the clock is known (prerender) or for an invalid time', () => {
    mockNow = null;
    const { container, rerender } = render(<RelativeTime timeMs={now} />);
    expect(container).toBeEmptyDOMElement();
    mockNow = now;
    rerender(<RelativeTime timeMs={Number.NaN} />);
    expect(container).toBeEmptyDOMElement();
  });
});
