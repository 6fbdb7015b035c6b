'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { ListVideo, Plus } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { FormCard } from '@/components/common/form-card';
import { contractName, contractString, formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice, type NoticeTone } from '@/components/common/notice';
import { Button, buttonClasses } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { describeError } from '@/lib/i18n/error-text';
import { useMyRoomCount } from '@/hooks/data/account';
import { createRoom } from '@/hooks/data/rooms';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { Role, roleOf, RoomStatus } from '@/lib/contract/roles';
import { publicSettingsAtom, userAtom } from '@/lib/session';
import { validateRoomName, validateRoomPassword } from '@/lib/contract/validation';
import { cinemaPath } from '@/config/routes';
import { writeRoomPassword, writeRoomSetupPending } from '@/lib/storage';
import '@/lib/i18n/messages/rooms';
import '@/lib/i18n/messages/errors';

const schema = z.object({
  roomName: contractName(validateRoomName),
  password: contractString(validateRoomPassword),
  hidden: z.boolean(),
});
type CreateRoomForm = z.infer<typeof schema>;

/**
 * `/createRoom` (docs/reference-client.md §1.4 "Create"): name, optional password, hidden flag;
 * `POST /api/room/create`. An active room opens at once; a room awaiting review says so. Before the
 * form, what stands in the way is said with the way out: room creation turned off, or the room
 * limit reached (the companion server's `userMaxRoomCount` against the user's own rooms; admins have
 * none), with a link to the user's rooms to delete one. A v0.9.11 server tells only when refusing.
 */
export function CreateRoomScreen() {
  const t = useT();
  const router = useRouter();
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [limitReached, setLimitReached] = useState(false);
  const user = useAtomValue(userAtom);
  const settings = useAtomValue(publicSettingsAtom);
  const isAdmin = roleOf(user) >= Role.Admin;
  const limit = isAdmin ? undefined : settings?.userMaxRoomCount;
  // How many rooms the user has (any status: they all count towards the limit).
  const count = useMyRoomCount(limit !== undefined);
  const closed = !isAdmin && settings?.createRoomDisabled === true;
  const full = limitReached || (limit !== undefined && count !== undefined && count >= limit);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateRoomForm>({ resolver: zodResolver(schema), defaultValues: { roomName: '', password: '', hidden: false } });

  const { failure, run } = useFormAction(setError, { roomName: 'roomName', roomPassword: 'password', password: 'password' });
  const shown = failure === null ? notice : { tone: 'error' as const, text: failure };
  /** Creates the room; null when this user has as many rooms as they may (the screen then says so). */
  const create = async (request: Parameters<typeof createRoom>[0]) => {
    try {
      return await createRoom(request);
    } catch (error) {
      if (describeError(error).text !== 'room count exceeds limit') throw error;
      setLimitReached(true);
      return null;
    }
  };

  const onSubmit = handleSubmit(({ roomName, password, hidden }) =>
    run(async () => {
      setNotice(null);
      const created = await create({ roomName, password, settings: { hidden } });
      if (created === null) return;
      if (created?.status === RoomStatus.Active) {
        writeRoomPassword(created.roomId, password);
        // The viewing hall offers the room presets (who controls playback) once.
        writeRoomSetupPending(created.roomId, true);
        notifySuccess(t('createRoom.success'));
        router.push(cinemaPath(created.roomId));
        return;
      }
      if (created?.status === RoomStatus.Pending) {
        setNotice({ tone: 'warning', text: t('createRoom.pending') });
        return;
      }
      const reason: MessageKey = created?.status === RoomStatus.Banned ? 'createRoom.banned' : 'createRoom.unknown';
      setNotice({ tone: 'error', text: `${t('createRoom.failed')}: ${t(reason)}` });
    }),
  );

  if (closed || full) {
    return (
      <FormCard testId="page-createRoom" icon={<Plus />} title={t('route.createRoom')}>
        <Notice tone="warning" testId={closed ? 'create-room-closed' : 'create-room-limit'}>
          <p className="font-medium">{closed ? t('createRoom.closed') : limit !== undefined ? t('createRoom.limitReached', { limit }) : t('contract.room count exceeds limit')}</p>
          {closed ? null : (
            <>
              <p className="mt-1">{t('createRoom.limitHow')}</p>
              <Link href="/user/me" data-testid="create-room-my-rooms" className={buttonClasses('primary', 'sm', 'mt-3')}>
                <ListVideo className="h-4 w-4" aria-hidden />
                {t('createRoom.myRooms')}
              </Link>
            </>
          )}
        </Notice>
      </FormCard>
    );
  }

  return (
    <FormCard testId="page-createRoom" icon={<Plus />} title={t('route.createRoom')} subtitle={t('createRoom.subtitle')}>
      {limit !== undefined && count !== undefined ? (
        <p className="mb-4 text-center text-sm text-zinc-600 dark:text-zinc-300" data-testid="create-room-count">
          {t('createRoom.count', { count, limit })}
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <TextField
          id="create-room-name"
          label={t('createRoom.name')}
          error={formErrorText(t, errors.roomName?.message)}
          autoComplete="off"
          autoFocus
          {...register('roomName')}
        />
        <TextField
          id="create-room-password"
          label={t('createRoom.password')}
          hint={t('createRoom.passwordHint')}
          error={formErrorText(t, errors.password?.message)}
          type="password"
          autoComplete="new-password"
          {...register('password')}
        />
        <Checkbox
          id="create-room-hidden"
          data-testid="create-room-hidden"
          label={t('createRoom.hidden')}
          hint={t('createRoom.hiddenHint')}
          {...register('hidden')}
        />
        {shown ? <Notice tone={shown.tone}>{shown.text}</Notice> : null}
        <Button type="submit" data-testid="create-room-submit" className="w-full" size="lg" loading={isSubmitting}>
          {t('createRoom.submit')}
        </Button>
      </form>
    </FormCard>
  );
}
