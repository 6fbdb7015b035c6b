import { CinemaRoute } from './cinema-route';

// Room ids are unknown at build time: the export holds one placeholder room `_`, which the server
// serves for every `/web/cinema/<id>/` (docs/static-export.md §1.3–1.4).
export function generateStaticParams() {
  return [{ roomId: '_' }];
}

export default function CinemaPage() {
  return <CinemaRoute />;
}
