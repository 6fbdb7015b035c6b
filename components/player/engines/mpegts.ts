/**
 * FLV and MPEG-TS, live or not, through mpegts.js. A live stream keeps to its live edge (LIVE_EDGE).
 * A broadcast pushed into the room (docs/live.md) is off the air while nobody pushes (the stream
 * answers 404) and once its push ends (the stream ends or breaks); an encoder sending what browsers
 * cannot decode is named (`broadcastCodec`).
 */
import { earlyEngine } from '@/lib/room/early-engine';
import { loadThen, type AttachEngine } from './engine';

/** mpegts.js, imported once the room link's early start has it in (./engine.ts). */
export const importMpegts = () => earlyEngine().then(() => import('mpegts.js'));

/**
 * How a live FLV or MPEG-TS stream keeps to its live edge (mpegts.js's latency options, measured in
 * docs/live.md "Latency"): more than 1.2 s behind the newest data it holds, the element plays at
 * 1.2× until 0.8 s behind (a short speed-up after a stall, nothing skipped); only more than 5 s
 * behind (a long freeze, a tab in the background) does it jump to 1 s behind. The sync engine leaves
 * a live movie's rate alone (play and pause only).
 */
const LIVE_EDGE = {
  liveSync: true,
  liveSyncMaxLatency: 1.2,
  liveSyncTargetLatency: 0.8,
  liveSyncPlaybackRate: 1.2,
  liveBufferLatencyChasing: true,
  liveBufferLatencyMaxLatency: 5,
  liveBufferLatencyMinRemain: 1,
};

export const attachMpegts: AttachEngine = ({ video, url, kind, headers, live, broadcast }, hooks) =>
  loadThen(importMpegts(), hooks, ({ default: mpegts }) => {
    if (!mpegts.isSupported()) {
      hooks.report({ kind: 'unsupportedFormat', detail: kind.toUpperCase() });
      return;
    }
    const type = kind === 'flv' ? 'flv' : 'mpegts';
    const player = mpegts.createPlayer({ type, url, isLive: live }, { headers, enableStashBuffer: !live, ...(live ? LIVE_EDGE : {}) });
    if (broadcast) {
      player.on(mpegts.Events.ERROR, (_type: string, detail: string, info?: string | { msg?: string }) => {
        // The encoder sends what browsers cannot decode: say which codec and how to fix it.
        // (A demuxer error's info is its message; a loader error's is `{code, msg}`.)
        const message = typeof info === 'string' ? info : (info?.msg ?? '');
        if (detail === mpegts.ErrorDetails?.MEDIA_CODEC_UNSUPPORTED) hooks.report({ kind: 'broadcastCodec', detail: message });
        hooks.offAir();
      });
      player.on(mpegts.Events.LOADING_COMPLETE, () => hooks.offAir());
    } else {
      player.on(mpegts.Events.ERROR, (errorType: string, detail: string) => hooks.fail(detail, errorType === mpegts.ErrorTypes?.MEDIA_ERROR ? 3 : undefined));
    }
    player.attachMediaElement(video);
    player.load();
    return {
      stop() {
        player.unload();
        player.detachMediaElement();
        player.destroy();
      },
    };
  });
