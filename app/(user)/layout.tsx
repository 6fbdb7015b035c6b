import type { ReactNode } from 'react';
import { AuthGuard } from '@/components/auth/auth-guard';

/** Signed-in routes (minimum role User); visitors pass only to /joinRoom, and to /cinema when guests are enabled. */
export default function UserLayout({ children }: { children: ReactNode }) {
  return <AuthGuard>{children}</AuthGuard>;
}
