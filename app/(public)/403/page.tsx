import { StatusScreen } from '@/components/common/status-screen';

export default function ForbiddenPage() {
  return <StatusScreen testId="page-403" emoji="🔞" title="forbidden.title" body="forbidden.body" />;
}
