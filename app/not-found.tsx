import { StatusScreen } from '@/components/common/status-screen';

/**
 * Exported as out/404.html, which the server answers (status 404) for unknown paths under /web. Its
 * picture is the number itself: this module loads with every page, so it imports no icon.
 */
export default function NotFound() {
  return <StatusScreen testId="page-404" icon={<b>404</b>} title="notFound.title" body="notFound.body" />;
}
