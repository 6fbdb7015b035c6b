/** A room card's "created" time as a reader sees it: relative text in the UI language, full date on hover. */
import { render, screen } from '@testing-library/react';
import { RelativeTime } from './relative-time';

let mockNow: number | null = null;
let mockLocale: 'zh' | 'en' = 'en';
jest.mock('@/hooks/use-now', () => ({ useNow: () => mockNow }));
jest.mock('@/lib/i18n', () => ({ useLocale: () => [mockLocale, () => undefined] }));

const now = new Date(2025, 5, 15, 12, 0, 0).getTime();
const MIN = 60_000;

beforeEach(() => {
  mockNow = now;
  mockLocale = 'en';
});

describe('RelativeTime', () => {
  it('shows the distance in English with the full date in the tooltip', () => {
    const created = now - 5 * MIN;
    render(<RelativeTime timeMs={created} />);
    const time = screen.getByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('dateTime', new Date(created).toISOString());
    expect(time.getAttribute('title')).toMatch(/^Jun 15, 2025,? 11:55:00\sAM$/);
  });

  it('shows Chinese text and a Chinese full date when the language is zh (once its date locale has loaded)', async () => {
    mockLocale = 'zh';
    const created = now - 3 * 24 * 60 * MIN;
    render(<RelativeTime timeMs={created} />);
    const time = await screen.findByText('3 天前');
    expect(time).toHaveAttribute('title', '2025年6月12日 12:00:00');
  });

  it('never reads as the future for a time slightly ahead (server clock ahead)', () => {
    render(<RelativeTime timeMs={now + 2 * MIN} />);
    expect(screen.getByText('less than a minute ago')).toBeInTheDocument();
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
