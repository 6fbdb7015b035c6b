import type { ReactNode } from 'react';
import { AuthGuard } from '@/components/auth/auth-guard';

/** Admin routes (minimum role Admin): visitors go to login, other users to /403. */
export default function AdminLayout({ children }: { children: ReactNode }) {
  return <AuthGuard>{children}</AuthGuard>;
}
