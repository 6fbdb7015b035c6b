'use client';
/** The room socket's state for the user: connected, connecting, or disconnected (retrying). */
import { clsx } from 'clsx';
import { useAtomValue } from 'jotai';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { useT, type MessageKey } from '@/lib/i18n';
import { roomConnectionAtom } from '@/lib/room/atoms';
import type { RoomSocketState } from '@/lib/ws/room-socket';
import '@/lib/i18n/messages/cinema';

const view: Record<RoomSocketState, { tone: BadgeTone; label: MessageKey; dot: string }> = {
  open: { tone: 'green', label: 'cinema.ws.open', dot: 'bg-emerald-500' },
  connecting: { tone: 'amber', label: 'cinema.ws.connecting', dot: 'animate-pulse bg-amber-500' },
  closed: { tone: 'red', label: 'cinema.ws.closed', dot: 'bg-red-500' },
};

/** The open room's socket state (`roomConnectionAtom`). */
export function ConnectionBadge() {
  const t = useT();
  const state = useAtomValue(roomConnectionAtom);
  const { tone, label, dot } = view[state];
  return (
    <span data-testid="ws-state" data-state={state} role="status">
      <Badge tone={tone}>
        <span aria-hidden className={clsx('h-2 w-2 rounded-full', dot)} />
        {t(label)}
      </Badge>
    </span>
  );
}
