import { ComingSoonScreen } from '@/components/common/coming-soon-screen';

// The admin console (users, rooms, settings) is the subject of a later issue.
export default function AdminPage() {
  return <ComingSoonScreen routeName="admin" title="route.admin" body="comingSoon.admin" />;
}
