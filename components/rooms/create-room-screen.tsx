'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { FormCard } from '@/components/common/form-card';
import { contractName, contractString, formErrorText, placeFormError } from '@/components/common/form-rules';
import { Notice, type NoticeTone } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import { createRoom } from '@/lib/api/room';
import { useT, type MessageKey } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { RoomStatus } from '@/lib/contract/roles';
import { validateRoomName, validateRoomPassword } from '@/lib/contract/validation';
import { cinemaPath } from '@/config/routes';
import { writeRoomPassword, writeRoomSetupPending } from '@/lib/storage';
import '@/lib/i18n/messages/rooms';

const schema = z.object({
  roomName: contractName(validateRoomName),
  password: contractString(validateRoomPassword),
  hidden: z.boolean(),
});
type CreateRoomForm = z.infer<typeof schema>;

/**
 * `/createRoom` (reference-client.md §1.4 "Create"): name, optional password, hidden flag;
 * `POST /api/room/create`. An active room opens at once; a room awaiting review says so.
 */
export function CreateRoomScreen() {
  const t = useT();
  const router = useRouter();
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateRoomForm>({ resolver: zodResolver(schema), defaultValues: { roomName: '', password: '', hidden: false } });

  const onSubmit = handleSubmit(async ({ roomName, password, hidden }) => {
    setNotice(null);
    try {
      const created = await createRoom({ roomName, password, settings: { hidden } });
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
    } catch (error) {
      const text = placeFormError(error, { roomName: 'roomName', roomPassword: 'password', password: 'password' }, setError);
      setNotice(text === null ? null : { tone: 'error', text });
    }
  });

  return (
    <FormCard testId="page-createRoom" icon={<Plus />} title={t('route.createRoom')} subtitle={t('createRoom.subtitle')}>
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
        {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
        <Button type="submit" data-testid="create-room-submit" className="w-full" size="lg" loading={isSubmitting}>
          {t('createRoom.submit')}
        </Button>
      </form>
    </FormCard>
  );
}
