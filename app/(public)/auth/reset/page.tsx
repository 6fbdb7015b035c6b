import { ResetScreen } from '@/components/auth/reset-screen';

export default function ResetPage() {
  return <ResetScreen />;
}
