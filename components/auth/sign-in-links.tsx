'use client';
/**
 * The way in for a visitor: "Log in", and "Register" where the server lets people sign up, each
 * coming back to `back` afterwards (`?redirect=`, lib/guard.ts). Used by the hall's guest banner and
 * by the join screen when a visitor cannot enter as a guest.
 */
import Link from 'next/link';
import { useAtomValue } from 'jotai';
import { LogIn, UserPlus } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { signupAllowed } from '@/config/menu';
import { loginPath, registerPath } from '@/lib/guard';
import { publicSettingsAtom } from '@/lib/session';

export interface SignInLinksProps {
  /** The path to come back to, without the base path (e.g. `/cinema/<id>`). */
  back: string;
  /** Test ids: `<testIdPrefix>-login` and `<testIdPrefix>-register`. */
  testIdPrefix: string;
  loginLabel: string;
  registerLabel: string;
}

export function SignInLinks({ back, testIdPrefix, loginLabel, registerLabel }: SignInLinksProps) {
  const canRegister = signupAllowed(useAtomValue(publicSettingsAtom));
  return (
    <div className="flex flex-wrap gap-2">
      <Link href={loginPath(back)} data-testid={`${testIdPrefix}-login`} className={buttonClasses('primary', 'sm')}>
        <LogIn className="h-4 w-4" aria-hidden />
        {loginLabel}
      </Link>
      {canRegister ? (
        <Link href={registerPath(back)} data-testid={`${testIdPrefix}-register`} className={buttonClasses('outline', 'sm')}>
          <UserPlus className="h-4 w-4" aria-hidden />
          {registerLabel}
        </Link>
      ) : null}
    </div>
  );
}
