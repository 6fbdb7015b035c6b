'use client';
/**
 * The viewing hall's room buttons: Members and Room settings (signed-in members; guests may read
 * neither, docs/contract.md §4.3) and Share (everyone). Each panel is its own chunk, downloaded on
 * its first opening, so the hall's first frame does not pay for running the room. Also offers the
 * room presets once, right after the room was created in this tab (./setup-offer.tsx).
 */
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { MoreHorizontal, Settings, Share2, Users } from 'lucide-react';
import { ActionMenu } from '@/components/ui/action-menu';
import { Button, buttonClasses } from '@/components/ui/button';
import { useT } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { roomAbilitiesAtom, roomInfoAtom } from '@/lib/room/atoms';
import { tokenAtom } from '@/lib/session';
import { readRoomSetupPending, writeRoomSetupPending } from '@/lib/storage';
import '@/lib/i18n/messages/cinema';

type Panel = 'members' | 'settings' | 'share';

interface PanelProps {
  roomId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  needPassword: boolean;
}

/** A panel chunk; if it cannot be downloaded, the user is told and the panel stays closed. */
function lazyPanel(load: () => Promise<ComponentType<PanelProps>>) {
  return lazy(() =>
    load()
      .then((component) => ({ default: component }))
      .catch(() => ({ default: PanelLoadFailed })),
  );
}

function PanelLoadFailed({ onOpenChange }: PanelProps) {
  const t = useT();
  useEffect(() => {
    notifyError(new Error(t('cinema.panel.loadFailed')));
    onOpenChange(false);
  }, [onOpenChange, t]);
  return null;
}

const PANELS: Record<Panel, ReturnType<typeof lazyPanel>> = {
  members: lazyPanel(() => import('./members-panel').then((m) => m.MembersPanel)),
  settings: lazyPanel(() => import('./settings-panel').then((m) => m.SettingsPanel)),
  share: lazyPanel(() => import('./share-dialog').then((m) => m.ShareDialog)),
};

const SetupOffer = lazy(() => import('./setup-offer').then((m) => ({ default: m.SetupOffer })));

export function RoomAdminBar({ roomId }: { roomId: string }) {
  const t = useT();
  const signedIn = useAtomValue(tokenAtom) !== null;
  const info = useAtomValue(roomInfoAtom);
  const [open, setOpen] = useState<Panel | null>(null);
  const [used, setUsed] = useState<Panel[]>([]);

  const show = (panel: Panel) => {
    setUsed((current) => (current.includes(panel) ? current : [...current, panel]));
    setOpen(panel);
  };

  const buttons: { panel: Panel; label: string; icon: React.ReactNode; visible: boolean }[] = [
    { panel: 'members', label: t('cinema.panel.members'), icon: <Users className="h-3.5 w-3.5" aria-hidden />, visible: signedIn },
    { panel: 'settings', label: t('cinema.panel.settings'), icon: <Settings className="h-3.5 w-3.5" aria-hidden />, visible: signedIn },
    { panel: 'share', label: t('cinema.panel.share'), icon: <Share2 className="h-3.5 w-3.5" aria-hidden />, visible: true },
  ];

  const visible = buttons.filter((button) => button.visible);
  return (
    <div className="ml-auto flex shrink-0 gap-2">
      {/* A phone keeps the title row to one line: the buttons fold into one menu. */}
      <div className="hidden gap-2 sm:flex">
        {visible.map((button) => (
          <Button
            key={button.panel}
            variant="outline"
            size="sm"
            data-testid={`open-${button.panel}`}
            aria-haspopup="dialog"
            aria-expanded={open === button.panel}
            onClick={() => show(button.panel)}
          >
            {button.icon}
            {button.label}
          </Button>
        ))}
      </div>
      <ActionMenu
        label={t('cinema.panel.menu')}
        testId="room-menu"
        className={buttonClasses('outline', 'icon', 'sm:hidden')}
        items={visible.map((button) => ({ id: button.panel, testId: `menu-open-${button.panel}`, icon: button.icon, label: button.label, onSelect: () => show(button.panel) }))}
      >
        <MoreHorizontal className="h-4 w-4" aria-hidden />
      </ActionMenu>
      {used.map((panel) => {
        const View = PANELS[panel];
        return (
          <Suspense key={panel} fallback={null}>
            <View
              roomId={roomId}
              open={open === panel}
              onOpenChange={(next) => setOpen(next ? panel : null)}
              needPassword={Boolean(info?.needPassword)}
            />
          </Suspense>
        );
      })}
    </div>
  );
}

/**
 * The presets offer after creating a room: shown to whoever may change the room's settings when this
 * tab just created the room, until a preset is applied or the offer dismissed.
 */
export function RoomSetup({ roomId }: { roomId: string }) {
  const canSet = useAtomValue(roomAbilitiesAtom).canSetRoomSettings;
  const [pending, setPending] = useState(false);
  useEffect(() => setPending(readRoomSetupPending(roomId)), [roomId]);
  if (!pending || !canSet) return null;
  const done = () => {
    writeRoomSetupPending(roomId, false);
    setPending(false);
  };
  return (
    <Suspense fallback={null}>
      <SetupOffer roomId={roomId} onDone={done} />
    </Suspense>
  );
}
