import { render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { localeAtom } from '@/lib/i18n';
import { tokenAtom } from '@/lib/session';
import type { RoomSession } from '@/lib/room/session';
import { VoiceEntry } from './voice-entry';

function renderEntry(props: { signedIn: boolean; canVoice: boolean; connected: boolean }) {
  const store = createStore();
  store.set(tokenAtom, props.signedIn ? 'token' : null);
  store.set(localeAtom, 'en');
  const session = {} as RoomSession;
  return render(
    <Provider store={store}>
      <VoiceEntry roomId="r1" session={session} canVoice={props.canVoice} connected={props.connected} video={null} />
    </Provider>,
  );
}

describe('the way into voice chat', () => {
  it('offers Join voice to a member who may, and says why it waits while the room is not connected', () => {
    const { rerender } = renderEntry({ signedIn: true, canVoice: true, connected: true });
    expect(screen.getByTestId('voice-join')).toBeEnabled();
    rerender(<></>);
    renderEntry({ signedIn: true, canVoice: true, connected: false });
    expect(screen.getByTestId('voice-join')).toBeDisabled();
    expect(screen.getByTestId('voice-join')).toHaveAccessibleDescription('Voice opens once the room is connected');
  });

  it('tells a member without the permission whom to ask, and offers a visitor to log in and come back', () => {
    renderEntry({ signedIn: true, canVoice: false, connected: true });
    expect(screen.queryByTestId('voice-join')).toBeNull();
    expect(screen.getByTestId('voice-denied')).toHaveTextContent('ask its creator or an admin');
    renderEntry({ signedIn: false, canVoice: false, connected: true });
    expect(screen.getByRole('link', { name: 'Log in to join voice chat' })).toHaveAttribute('href', expect.stringContaining('redirect=%2Fcinema%2Fr1'));
  });
});
