/** The autoplay refusal over the picture: what it says, in both languages, and its one way in. */
import { fireEvent, render, screen } from '@testing-library/react';
import { translate } from '@/lib/i18n/messages';
import { AutoplayBlocked } from './autoplay-blocked';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
let mockLocale: 'zh' | 'en' = 'en';
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  return { useT: () => (key: string, params?: Record<string, string | number>) => translate(mockLocale, key, params) };
});

describe('AutoplayBlocked', () => {
  it('says the browser did not start the video and joins the room on its one button', () => {
    const onJoin = jest.fn();
    render(<AutoplayBlocked onJoin={onJoin} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Your browser did not let the video start by itself');
    fireEvent.click(screen.getByRole('button', { name: 'Join the room' }));
    expect(onJoin).toHaveBeenCalledTimes(1);
  });

  it('says it in Chinese too', () => {
    mockLocale = 'zh';
    render(<AutoplayBlocked onJoin={() => undefined} />);
    expect(screen.getByRole('alert')).toHaveTextContent(translate('zh', 'cinema.autoplay.blocked'));
    expect(screen.getByRole('button', { name: translate('zh', 'cinema.autoplay.join') })).toBeInTheDocument();
  });
});
