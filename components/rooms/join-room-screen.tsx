'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { DoorOpen, Lock } from 'lucide-react';
import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { FormCard } from '@/components/common/form-card';
import { contractString, formErrorText } from '@/components/common/form-rules';
import { useFormAction } from '@/components/common/use-form-action';
import { Notice, type NoticeTone } from '@/components/common/notice';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { cinemaPath, normalizePath } from '@/config/routes';
import { useMounted } from '@/hooks/use-mounted';
import { usePathSegment } from '@/hooks/use-path-segment';
import type { RoomCheck } from '@/lib/contract/types';
import { SignInLinks } from '@/components/auth/sign-in-links';
import { useT } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { publicSettingsAtom, userAtom } from '@/lib/session';
import { isId, validateRoomPassword } from '@/lib/contract/validation';
import { memberOutcome, runJoinFlow } from './join-room-flow';
import { checkRoom, getRoomJoined } from '@/hooks/data/rooms';
import { Spinner } from '@/components/ui/spinner';
import { readRoomPassword, writeRoomPassword } from '@/lib/storage';
import '@/lib/i18n/messages/rooms';

/** How often (ms) a member waiting for approval checks whether they were let in. */
const WAITING_POLL_MS = 2000;

const schema = z.object({
  roomId: z.string().check(
    z.trim(),
    z.minLength(1, 'joinRoom.emptyId'),
    z.refine((value) => isId(value), 'joinRoom.invalidId'),
  ),
  password: contractString(validateRoomPassword),
});
type JoinRoomForm = z.infer<typeof schema>;

/**
 * `/joinRoom/{roomId?}` (docs/reference-client.md §1.4 "Join"). The id comes from the path (after mount:
 * the page was exported for the `_` placeholder) and the password from `?pwd=` or this device's cache;
 * with an id the join runs at once, so room cards and the 401 rule can simply link here and a password
 * room ends on a focused password field.
 */
export function JoinRoomScreen() {
  const t = useT();
  const router = useRouter();
  const pathname = usePathname();
  const mounted = useMounted();
  const pathRoomId = usePathSegment(1);
  const user = useAtomValue(userAtom);
  const settings = useAtomValue(publicSettingsAtom);
  const guestEnable = settings?.guestEnable ?? false;
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [room, setRoom] = useState<RoomCheck | null>(null);
  const [needsLogin, setNeedsLogin] = useState(false);
  // The room id while my membership waits for approval: the screen checks until it is decided.
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const [passwordFocus, setPasswordFocus] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<JoinRoomForm>({ resolver: zodResolver(schema), defaultValues: { roomId: '', password: '' } });

  const { failure, run } = useFormAction(setError, { roomId: 'roomId', roomPassword: 'password', password: 'password' });
  const shown = failure === null ? notice : { tone: 'error' as const, text: failure };
  const join = useCallback(
    ({ roomId, password }: JoinRoomForm) =>
      run(async () => {
        setNotice(null);
        setWaitingFor(null);
        const result = await runJoinFlow({ roomId, password, user });
        setRoom(result.room);
        const { outcome } = result;
        switch (outcome.kind) {
          case 'enter':
            writeRoomPassword(roomId, password);
            notifySuccess(t('joinRoom.success'));
            router.push(cinemaPath(roomId));
            return;
          case 'needPassword':
            setNotice({ tone: 'info', text: t('joinRoom.needPassword') });
            // The field appears with this render (a link's password room shows it only now).
            setPasswordFocus(true);
            return;
          case 'needLogin':
            setNeedsLogin(true);
            return;
          case 'waiting':
            writeRoomPassword(roomId, password);
            setWaitingFor(roomId);
            return;
          case 'refused': {
            setNotice({ tone: outcome.tone, text: t(outcome.message) });
            return;
          }
        }
      }),
    [user, router, run, t],
  );
  const onSubmit = handleSubmit(join);
  useEffect(() => {
    if (!passwordFocus) return;
    setPasswordFocus(false);
    setFocus('password');
  }, [passwordFocus, setFocus]);

  // Waiting for approval (join review): ask `/api/room/joined` every few seconds and enter as soon as
  // a room admin approves; a ban or a removed request ends the wait with its message.
  useEffect(() => {
    if (!waitingFor) return;
    let stopped = false;
    const timer = setInterval(() => {
      getRoomJoined(waitingFor).then(
        (joined) => {
          if (stopped) return;
          if (!joined.joined) {
            setWaitingFor(null);
            setNotice({ tone: 'warning', text: t('joinRoom.declined') });
            return;
          }
          const outcome = memberOutcome(joined.status);
          if (outcome.kind === 'waiting') return;
          setWaitingFor(null);
          if (outcome.kind === 'enter') {
            notifySuccess(t('joinRoom.success'));
            router.push(cinemaPath(waitingFor));
          } else if (outcome.kind === 'refused') {
            setNotice({ tone: outcome.tone, text: t(outcome.message) });
          }
        },
        // A network hiccup: try again on the next tick.
        () => undefined,
      );
    }, WAITING_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [waitingFor, router, t]);

  // Prefill from the URL once per (id, ?pwd) and join right away when there is an id to join.
  const prefilledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!mounted) return;
    const pwd = new URLSearchParams(window.location.search).get('pwd');
    if (!pathRoomId && pwd === null) return;
    const key = `${pathRoomId ?? ''}\n${pwd ?? ''}`;
    if (prefilledFor.current === key) return;
    prefilledFor.current = key;
    reset({ roomId: pathRoomId ?? '', password: pwd ?? (pathRoomId ? readRoomPassword(pathRoomId) : '') });
    if (pathRoomId && (user || guestEnable)) void onSubmit();
    // A visitor where guests are off cannot join: still show which room the link is for.
    else if (pathRoomId) checkRoom(pathRoomId).then(setRoom, () => undefined);
  }, [mounted, pathRoomId, user, guestEnable, reset, onSubmit]);

  // From a link (the id is in the path): the room is shown first and its id field only when the
  // link's room could not be found. A visitor who cannot enter as a guest is offered to log in or
  // register (and come back here) instead of a form whose Join would be refused.
  const fromLink = Boolean(pathRoomId);
  const visitorShutOut = !user && (!guestEnable || needsLogin || (room !== null && !room.enabledGuest));
  const showForm = !visitorShutOut;
  // The link's room may not exist (its error is about the id): then the id field shows, to fix it.
  const showIdField = !fromLink || Boolean(errors.roomId) || (shown !== null && room === null);
  const showPassword = !fromLink || Boolean(room?.needPassword) || Boolean(errors.password);
  const here = mounted ? normalizePath(pathname) + window.location.search : '/joinRoom';

  return (
    <FormCard
      testId="page-joinRoom"
      icon={room?.needPassword ? <Lock /> : <DoorOpen />}
      title={fromLink && room ? room.name : t('route.joinRoom')}
      subtitle={fromLink && room ? t('joinRoom.roomBy', { creator: room.creator, count: room.viewerCount }) : t('joinRoom.subtitle')}
    >
      {fromLink && room ? (
        <p className="sr-only" data-testid="join-room-info">
          {t('joinRoom.room', { name: room.name, creator: room.creator })}
        </p>
      ) : null}
      {visitorShutOut ? (
        <Notice tone="info" className="mb-5" testId="join-room-login-required">
          <p className="font-medium">{room ? t('joinRoom.signInToJoin', { name: room.name }) : t('joinRoom.loginFirst')}</p>
          <p className="mt-1">{room?.needPassword ? t('joinRoom.loginFirstPassword') : t('joinRoom.loginFirstBody')}</p>
          <div className="mt-3">
            <SignInLinks back={here} testIdPrefix="join-room" loginLabel={t('joinRoom.loginLink')} registerLabel={t('joinRoom.registerLink')} />
          </div>
        </Notice>
      ) : null}

      {showForm ? (
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          {showIdField ? (
            <TextField
              id="join-room-id"
              label={t('joinRoom.roomId')}
              error={formErrorText(t, errors.roomId?.message)}
              autoComplete="off"
              spellCheck={false}
              placeholder={t('joinRoom.roomIdPlaceholder')}
              className="font-mono"
              {...register('roomId')}
            />
          ) : null}
          {showPassword ? (
            <TextField
              id="join-room-password"
              label={t('joinRoom.password')}
              hint={t('joinRoom.passwordHint')}
              error={formErrorText(t, errors.password?.message)}
              type="password"
              autoComplete="off"
              {...register('password')}
            />
          ) : null}
          {!fromLink && room ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-300" data-testid="join-room-info">
              {t('joinRoom.room', { name: room.name, creator: room.creator })}
            </p>
          ) : null}
          {waitingFor ? (
            <Notice tone="info" testId="join-room-waiting">
              <p className="flex items-center gap-2 font-medium" role="status">
                <Spinner className="h-4 w-4" />
                {t('joinRoom.waitingTitle')}
              </p>
              <p className="mt-1">{t('joinRoom.waitingBody')}</p>
            </Notice>
          ) : null}
          {shown ? (
            <Notice tone={shown.tone} testId="join-room-message">
              {shown.text}
            </Notice>
          ) : null}
          <Button type="submit" data-testid="join-room-submit" className="w-full" size="lg" loading={isSubmitting}>
            {t('joinRoom.submit')}
          </Button>
        </form>
      ) : null}
    </FormCard>
  );
}
