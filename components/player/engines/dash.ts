/**
 * DASH through dash.js, which picks representations by bandwidth. Not autoplay: the sync engine
 * starts playback when the room plays. dash.js retries a request by itself; an ERROR it raises means
 * the source failed, and the player says why.
 *
 * Every request carries the movie's headers (`base.headers`), and a request under a proxied
 * manifest's segment folder (`/api/room/movie/proxy/<movie>/dash/…`, server/proxy/mpd.ts) the
 * manifest's own `token` and `roomId`: the player builds those addresses from templates, so the
 * server cannot put them in as it does in an HLS playlist.
 */
import { earlyEngine } from '@/lib/room/early-engine';
import { loadThen, type AttachEngine } from './engine';

/** dash.js, imported once the room link's early start has it in (./engine.ts). */
export const importDash = () => earlyEngine().then(() => import('dashjs'));

/** What a request made by dash.js may be changed in (the `url` and `headers` of @svta/cml-request's HttpRequest). */
export interface DashRequest {
  url: string;
  headers?: Record<string, string>;
}

/**
 * Adds to a dash.js request the movie's `headers`, and to one under the manifest's proxied segment
 * folder the manifest address's `token` and `roomId` (unless it has its own). Pure; returns `request`.
 */
export function withCredentials(request: DashRequest, manifestUrl: string, headers: Record<string, string>): DashRequest {
  if (Object.keys(headers).length > 0) request.headers = { ...request.headers, ...headers };
  const manifest = new URL(manifestUrl, 'http://relative.invalid');
  const target = new URL(request.url, manifest);
  const proxied = /^\/api\/room\/movie\/proxy\/[^/]+\/dash\//.test(target.pathname) && target.origin === manifest.origin;
  if (!proxied || target.searchParams.has('token')) return request;
  for (const name of ['token', 'roomId']) {
    const value = manifest.searchParams.get(name);
    if (value !== null) target.searchParams.set(name, value);
  }
  request.url = target.origin === 'http://relative.invalid' ? `${target.pathname}${target.search}` : target.href;
  return request;
}

export const attachDash: AttachEngine = ({ video, url, headers }, hooks) =>
  loadThen(importDash(), hooks, (dashjs) => {
    const player = dashjs.MediaPlayer().create();
    player.on(dashjs.MediaPlayer.events.ERROR, (event: { error?: { message?: string } }) => hooks.fail(event.error?.message ?? 'DASH'));
    player.addRequestInterceptor((request) => Promise.resolve(withCredentials(request, url, headers) as typeof request));
    player.initialize(video, url, false);
    hooks.tracks({ kind: 'dash', player, streamInitialized: dashjs.MediaPlayer.events.STREAM_INITIALIZED });
    return {
      stop() {
        hooks.tracks(null);
        player.destroy();
      },
    };
  });
