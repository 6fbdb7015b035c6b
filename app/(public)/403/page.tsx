import { ShieldX } from 'lucide-react';
import { StatusScreen } from '@/components/common/status-screen';

export default function ForbiddenPage() {
  return <StatusScreen testId="page-403" icon={<ShieldX className="size-16 text-zinc-400" />} title="forbidden.title" body="forbidden.body" />;
}
