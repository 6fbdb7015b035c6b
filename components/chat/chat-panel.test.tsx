/** The chat as a user sees it: text only, Enter to send, the 4096-byte limit, nothing typed lost. */
import { fireEvent, render, screen } from '@testing-library/react';
import { ChatPanel } from './chat-panel';
import { appendLine, type ChatLine } from '@/hooks/use-chat';

// jotai (behind useT) ships ESM only, which this jest setup does not transform; the catalogue itself is real.
jest.mock('@/lib/i18n', () => {
  const { translate } = jest.requireActual('@/lib/i18n/messages');
  const t = (key: string, params?: Record<string, string | number>) => translate('zh', key, params);
  return { useT: () => t, t };
});

const line = (text: string, username = 'alice'): ChatLine => ({ id: `${username}-${text}`, username, text, atMs: new Date(2025, 0, 2, 9, 5, 7).getTime() });

describe('ChatPanel', () => {
  it('shows "username: text" and the local time HH:MM:SS', () => {
    render(<ChatPanel lines={[line('hello')]} canChat connected onSend={() => true} />);
    const message = screen.getByTestId('chat-message');
    expect(message).toHaveTextContent('alice: hello 09:05:07');
  });

  it('puts what was said before this tab came under "earlier messages", outside the live region; the hall\'s own lines apart', () => {
    const earlier = { ...line('from before'), earlier: true };
    const system = { id: 'sys', username: '', text: '正在播放《clip》', atMs: earlier.atMs, system: true };
    render(<ChatPanel lines={[earlier, system, line('now')]} canChat connected onSend={() => true} />);
    const block = screen.getByTestId('chat-earlier');
    expect(block).toHaveTextContent('alice: from before');
    expect(block.closest('[aria-live]')).toBeNull();
    expect(screen.getByText('之前的消息')).toBeInTheDocument();
    const live = screen.getByTestId('chat-system').closest('[aria-live]');
    expect(live).toHaveTextContent('正在播放《clip》');
    expect(live).toHaveTextContent('alice: now');
    expect(screen.getAllByTestId('chat-message')).toHaveLength(2);
  });

  it('renders markup as literal text, never as HTML', () => {
    const attack = '<img src=x onerror="window.hacked=1"><b>bold</b>';
    const { container } = render(<ChatPanel lines={[line(attack, '<i>mallory</i>')]} canChat connected onSend={() => true} />);
    expect(screen.getByTestId('chat-message')).toHaveTextContent(`<i>mallory</i>: ${attack}`);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('i')).toBeNull();
  });

  it('sends on Enter and clears the input', () => {
    const onSend = jest.fn(() => true);
    render(<ChatPanel lines={[]} canChat connected onSend={onSend} />);
    const input = screen.getByTestId('chat-input');
    fireEvent.change(input, { target: { value: 'hi there' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('hi there');
    expect(input).toHaveValue('');
  });

  it('refuses an empty message', () => {
    const onSend = jest.fn(() => true);
    render(<ChatPanel lines={[]} canChat connected onSend={onSend} />);
    fireEvent.click(screen.getByTestId('chat-send'));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('发送的消息不能为空');
  });

  it('refuses more than 4096 bytes with the count, keeping the draft', () => {
    const onSend = jest.fn(() => true);
    render(<ChatPanel lines={[]} canChat connected onSend={onSend} />);
    const input = screen.getByTestId('chat-input');
    const draft = '好'.repeat(1366); // 4098 bytes in UTF-8, 1366 characters
    fireEvent.change(input, { target: { value: draft } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('4096');
    expect(screen.getByRole('alert')).toHaveTextContent('4098');
    expect(input).toHaveValue(draft);
  });

  it('accepts exactly 4096 bytes', () => {
    const onSend = jest.fn(() => true);
    render(<ChatPanel lines={[]} canChat connected onSend={onSend} />);
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'a'.repeat(4096) } });
    fireEvent.keyDown(screen.getByTestId('chat-input'), { key: 'Enter' });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('keeps the draft when the socket cannot send', () => {
    render(<ChatPanel lines={[]} canChat connected onSend={() => false} />);
    const input = screen.getByTestId('chat-input');
    fireEvent.change(input, { target: { value: 'later' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(input).toHaveValue('later');
    expect(screen.getByRole('alert')).toHaveTextContent('尚未连接');
  });

  it('has no input without the chat permission', () => {
    render(<ChatPanel lines={[line('hello')]} canChat={false} connected onSend={() => true} />);
    expect(screen.queryByTestId('chat-input')).toBeNull();
    expect(screen.getByTestId('chat-message')).toBeInTheDocument();
  });
});

describe('appendLine', () => {
  it('keeps the newest lines up to the limit', () => {
    let lines: ChatLine[] = [];
    for (let i = 0; i < 5; i += 1) lines = appendLine(lines, line(`m${i}`), 3);
    expect(lines.map((l) => l.text)).toEqual(['m2', 'm3', 'm4']);
  });
});

describe('ChatPanel links and counter', () => {
  it('makes http(s) links clickable with a safe rel and keeps the rest as text', () => {
    const { container } = render(<ChatPanel lines={[line('watch https://example.com/v?id=1 now, not javascript:alert(1)')]} canChat connected onSend={() => true} />);
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://example.com/v?id=1');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0].getAttribute('rel')).toContain('noopener');
    expect(links[0].getAttribute('rel')).toContain('noreferrer');
    expect(screen.getByTestId('chat-message')).toHaveTextContent('alice: watch https://example.com/v?id=1 now, not javascript:alert(1)');
  });

  it('counts the bytes of the draft against the 4096-byte limit', () => {
    render(<ChatPanel lines={[]} canChat connected onSend={() => true} />);
    expect(screen.getByTestId('chat-counter')).toHaveTextContent('0 / 4096 字节');
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: '你好' } });
    expect(screen.getByTestId('chat-counter')).toHaveTextContent('6 / 4096 字节');
  });
});
