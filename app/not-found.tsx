import { StatusScreen } from '@/components/common/status-screen';

/** Exported as out/404.html, which the server answers (status 404) for unknown paths under /web. */
export default function NotFound() {
  return <StatusScreen testId="page-404" emoji="😅" title="notFound.title" body="notFound.body" />;
}
