'use client';
/**
 * Room chat: the lines as plain text (React text nodes; chat is never HTML, docs/contract.md §11 b)
 * where only http(s) links become links (lib/chat-links.ts), with their time; an input that sends on
 * Enter within the 4096-byte limit and counts the bytes as you type. What was said before this tab
 * joined (the companion server's replay, lib/room/chat.ts) comes first under "Earlier messages",
 * outside the live region so that screen readers do not read out the whole history on entering; the
 * hall's own lines ("now playing …") are set apart. Long lines wrap and the list scrolls inside the
 * panel, whose height the hall fixes.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { clsx } from 'clsx';
import { SendHorizontal } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/input';
import { useT } from '@/lib/i18n';
import { formatClockTime } from '@/lib/time-format';
import { byteLength, MAX_CHAT_BYTES, validateChat } from '@/lib/contract/validation';
import { splitChatLinks } from '@/lib/chat-links';
import type { ChatLine } from '@/hooks/use-chat';
import '@/lib/i18n/messages/cinema';

export interface ChatPanelProps {
  lines: ChatLine[];
  /** SendChatMessage permission. */
  canChat: boolean;
  /** Why the viewer may not chat and how to get in (components/room/denied.tsx), shown instead of the input. */
  denied?: React.ReactNode;
  connected: boolean;
  /** Sends one message; false when it could not be sent (socket not open). */
  onSend: (text: string) => boolean;
  /** Voice chat's entry or bar (components/voice), shown under the title. */
  voice?: React.ReactNode;
  className?: string;
}

export function ChatPanel({ lines, canChat, denied, connected, onSend, voice, className }: ChatPanelProps) {
  const t = useT();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  useEffect(() => {
    const list = listRef.current;
    if (list && stickToBottom.current) list.scrollTop = list.scrollHeight;
  }, [lines]);

  const send = () => {
    const problem = validateChat(draft);
    if (problem === 'message is empty') {
      setError(t('cinema.chat.empty'));
      return;
    }
    if (problem === 'message too long') {
      setError(t('cinema.chat.tooLong', { max: MAX_CHAT_BYTES, bytes: byteLength(draft) }));
      return;
    }
    if (!onSend(draft)) {
      // Keep the draft: nothing typed is lost while reconnecting.
      setError(t('cinema.chat.notConnected'));
      return;
    }
    setError(null);
    setDraft('');
    stickToBottom.current = true;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter confirming an IME composition (Chinese input) must not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const bytes = byteLength(draft);
  const overLimit = bytes > MAX_CHAT_BYTES;
  // The leading run of lines this tab did not see live: the replay of what was said before it came.
  const firstSeen = lines.findIndex((line) => !line.earlier);
  const earlier = firstSeen === -1 ? lines : lines.slice(0, firstSeen);
  const current = firstSeen === -1 ? [] : lines.slice(firstSeen);

  return (
    <section
      aria-label={t('cinema.chat.title')}
      className={clsx('flex min-h-0 flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900', className)}
    >
      <h2 className="border-b border-zinc-200 px-4 py-2.5 text-sm font-semibold dark:border-zinc-800">{t('cinema.chat.title')}</h2>
      {voice}
      <div
        ref={listRef}
        onScroll={(event) => {
          const list = event.currentTarget;
          stickToBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
        }}
        className="min-h-0 flex-1 overflow-y-auto px-4 py-2 text-sm"
      >
        {lines.length === 0 ? <p className="py-6 text-center text-zinc-500 dark:text-zinc-400">{t('cinema.chat.emptyHistory')}</p> : null}
        {earlier.length > 0 ? (
          <>
            <p className="pb-1 text-center text-xs font-medium text-zinc-600 dark:text-zinc-400">{t('cinema.chat.earlier')}</p>
            <ol aria-label={t('cinema.chat.earlier')} data-testid="chat-earlier" className="space-y-1 border-b border-zinc-200 pb-2 dark:border-zinc-800">
              {earlier.map((line) => (
                <ChatLineItem key={line.id} line={line} />
              ))}
            </ol>
          </>
        ) : null}
        <ol aria-live="polite" className={clsx('space-y-1', earlier.length > 0 && 'pt-2')}>
          {current.map((line) => (
            <ChatLineItem key={line.id} line={line} />
          ))}
        </ol>
      </div>
      {canChat ? (
        <form onSubmit={onSubmit} className="border-t border-zinc-200 p-3 dark:border-zinc-800">
          <div className="flex gap-2">
            <input
              data-testid="chat-input"
              type="text"
              value={draft}
              onChange={(event) => {
                setDraft(event.target.value);
                if (error) setError(null);
              }}
              onKeyDown={onKeyDown}
              placeholder={t('cinema.chat.placeholder')}
              aria-label={t('cinema.chat.placeholder')}
              aria-invalid={error || overLimit ? true : undefined}
              aria-describedby="chat-counter"
              className={clsx(inputClasses, 'min-w-0 flex-1')}
            />
            <Button data-testid="chat-send" type="submit" disabled={!connected}>
              <SendHorizontal className="h-4 w-4" aria-hidden />
              {t('cinema.chat.send')}
            </Button>
          </div>
          <div className="mt-1.5 flex items-start justify-between gap-3 text-xs">
            {error ? (
              <p role="alert" className="text-red-600 dark:text-red-400">
                {error}
              </p>
            ) : overLimit ? (
              <p className="text-red-600 dark:text-red-400">{t('cinema.chat.tooLong', { max: MAX_CHAT_BYTES, bytes })}</p>
            ) : (
              <span />
            )}
            <span
              id="chat-counter"
              data-testid="chat-counter"
              className={clsx('shrink-0 tabular-nums', overLimit ? 'text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400')}
            >
              {t('cinema.chat.counter', { bytes, max: MAX_CHAT_BYTES })}
            </span>
          </div>
        </form>
      ) : (
        <div className="border-t border-zinc-200 p-3 text-center dark:border-zinc-800" data-testid="chat-denied">
          {denied ?? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('cinema.chat.noPermission')}</p>}
        </div>
      )}
    </section>
  );
}

/** One line: `name: text` with its time, or one of the hall's own lines, set apart. */
function ChatLineItem({ line }: { line: ChatLine }) {
  const time = (
    <time dateTime={new Date(line.atMs).toISOString()} className="text-xs text-zinc-500 dark:text-zinc-400">
      {formatClockTime(line.atMs)}
    </time>
  );
  if (line.system) {
    return (
      <li data-testid="chat-system" className="text-center text-xs text-zinc-600 italic dark:text-zinc-400">
        {line.text} {time}
      </li>
    );
  }
  return (
    <li data-testid="chat-message" data-earlier={line.earlier || undefined} className="whitespace-pre-wrap break-words">
      <span className="font-medium text-brand-700 dark:text-brand-300">{line.username}</span>
      {': '}
      <span>
        {splitChatLinks(line.text).map((part, index) =>
          part.kind === 'link' ? (
            <a
              key={index}
              href={part.href}
              target="_blank"
              rel="noopener noreferrer nofollow ugc"
              className="break-all text-brand-700 underline underline-offset-2 dark:text-brand-300"
            >
              {part.text}
            </a>
          ) : (
            part.text
          ),
        )}
      </span>{' '}
      {time}
    </li>
  );
}
