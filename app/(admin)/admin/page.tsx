import { AdminPage } from '@/components/admin/admin-page';

/** The site admin console (role >= Admin, enforced by the route group's guard). */
export default function Page() {
  return <AdminPage />;
}
