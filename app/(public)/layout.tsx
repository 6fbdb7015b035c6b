import type { ReactNode } from 'react';
import { AuthGuard } from '@/components/auth/auth-guard';

/** Visitor routes: the guard lets everyone in without waiting for the session (route table minRole Visitor). */
export default function PublicLayout({ children }: { children: ReactNode }) {
  return <AuthGuard>{children}</AuthGuard>;
}
