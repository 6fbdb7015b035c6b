/**
 * Which hls.js build a stream gets. Each playlist goes through hls.js's real light build (the one the
 * player starts with) and its default XHR loader, so the decision sees exactly what the player sees.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Hls, { type ManifestLoadedData } from 'hls.js/light';
import { needsFullHlsBuild } from './hls-build';

interface LightView {
  needsFull: boolean;
  manifest: ManifestLoadedData;
}

/** Loads a playlist (as a data: URL) with the light build and decides in MANIFEST_LOADED, as the player does. */
async function loadWithLightBuild(playlist: string): Promise<LightView> {
  const hls = new Hls({ autoStartLoad: false });
  try {
    return await new Promise<LightView>((resolve, reject) => {
      hls.on(Hls.Events.MANIFEST_LOADED, (_event, manifest) => resolve({ needsFull: needsFullHlsBuild(manifest), manifest }));
      hls.on(Hls.Events.ERROR, (_event, data) => reject(new Error(`hls.js: ${data.details}`)));
      hls.loadSource(`data:application/vnd.apple.mpegurl;base64,${Buffer.from(playlist).toString('base64')}`);
    });
  } finally {
    hls.destroy();
  }
}

const multivariant = (...lines: string[]) => ['#EXTM3U', '#EXT-X-VERSION:6', ...lines, ''].join('\n');
const H264 = 'CODECS="avc1.64001f,mp4a.40.2"';

describe('needsFullHlsBuild', () => {
  it('keeps the light build for a plain multivariant playlist', async () => {
    const view = await loadWithLightBuild(
      multivariant(
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=1280x720,${H264}`,
        'https://cdn.test/720p.m3u8',
        `#EXT-X-STREAM-INF:BANDWIDTH=640000,RESOLUTION=640x360,${H264}`,
        'https://cdn.test/360p.m3u8',
      ),
    );
    expect(view.manifest.levels).toHaveLength(2);
    expect(view.needsFull).toBe(false);
  });

  it('keeps the light build for the e2e clip, a single media playlist', async () => {
    const clip = readFileSync(path.join(process.cwd(), 'e2e/media/clip/index.m3u8'), 'utf8');
    const view = await loadWithLightBuild(clip);
    expect(view.manifest.levels[0].details?.fragments.length).toBeGreaterThan(0);
    expect(view.needsFull).toBe(false);
  });

  it('switches for alternate audio renditions (EXT-X-MEDIA TYPE=AUDIO with a URI)', async () => {
    const view = await loadWithLightBuild(
      multivariant(
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="https://cdn.test/audio-en.m3u8"',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="日本語",LANGUAGE="ja",URI="https://cdn.test/audio-ja.m3u8"',
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"`,
        'https://cdn.test/720p.m3u8',
      ),
    );
    expect(view.needsFull).toBe(true);
  });

  it('keeps the light build when the only audio rendition is muxed into the variants (no URI)', async () => {
    const view = await loadWithLightBuild(
      multivariant(
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES',
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,${H264},AUDIO="aac"`,
        'https://cdn.test/720p.m3u8',
      ),
    );
    expect(view.manifest.audioTracks.length).toBeGreaterThan(0);
    expect(view.needsFull).toBe(false);
  });

  it('switches for subtitle renditions', async () => {
    const view = await loadWithLightBuild(
      multivariant(
        '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="中文",LANGUAGE="zh",DEFAULT=YES,URI="https://cdn.test/subs-zh.m3u8"',
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,${H264},SUBTITLES="subs"`,
        'https://cdn.test/720p.m3u8',
      ),
    );
    expect(view.needsFull).toBe(true);
  });

  it('switches for declared closed captions', async () => {
    const view = await loadWithLightBuild(
      multivariant(
        '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",LANGUAGE="en",INSTREAM-ID="CC1"',
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,${H264},CLOSED-CAPTIONS="cc"`,
        'https://cdn.test/720p.m3u8',
      ),
    );
    expect(view.needsFull).toBe(true);
  });

  it('switches for SAMPLE-AES DRM session keys, which the light parser drops', async () => {
    const view = await loadWithLightBuild(
      multivariant(
        '#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"',
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"`,
        'https://cdn.test/720p.m3u8',
      ),
    );
    expect(view.manifest.sessionKeys).toBeNull();
    expect(view.needsFull).toBe(true);
  });

  it('switches for a Widevine EXT-X-KEY in a media playlist', async () => {
    const view = await loadWithLightBuild(
      [
        '#EXTM3U',
        '#EXT-X-TARGETDURATION:6',
        '#EXT-X-MAP:URI="init.mp4"',
        '#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="data:text/plain;base64,AAAAW3Bzc2g=",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1"',
        '#EXTINF:6.0,',
        'seg0.m4s',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
    expect(view.needsFull).toBe(true);
  });

  it('keeps the light build for AES-128 and clear SAMPLE-AES, which it decrypts itself', async () => {
    const aes128 = await loadWithLightBuild(
      ['#EXTM3U', '#EXT-X-TARGETDURATION:6', '#EXT-X-KEY:METHOD=AES-128,URI="https://keys.test/k"', '#EXTINF:6.0,', 'seg0.ts', '#EXT-X-ENDLIST', ''].join('\n'),
    );
    const sampleAes = await loadWithLightBuild(
      ['#EXTM3U', '#EXT-X-TARGETDURATION:6', '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="https://keys.test/k"', '#EXTINF:6.0,', 'seg0.ts', '#EXT-X-ENDLIST', ''].join('\n'),
    );
    expect(aes128.needsFull).toBe(false);
    expect(sampleAes.needsFull).toBe(false);
  });

  it('switches for variable substitution (EXT-X-DEFINE), which the light parser ignores', async () => {
    const view = await loadWithLightBuild(
      multivariant('#EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.test"', `#EXT-X-STREAM-INF:BANDWIDTH=1280000,${H264}`, '{$cdn}/720p.m3u8'),
    );
    expect(view.manifest.variableList).toBeNull();
    expect(view.needsFull).toBe(true);
  });

  it('switches for interstitials, which only the full build plays', async () => {
    const view = await loadWithLightBuild(
      [
        '#EXTM3U',
        '#EXT-X-TARGETDURATION:6',
        '#EXT-X-PROGRAM-DATE-TIME:2025-01-01T00:00:00.000Z',
        '#EXT-X-DATERANGE:ID="ad-1",CLASS="com.apple.hls.interstitial",START-DATE="2025-01-01T00:00:06.000Z",DURATION=15,X-ASSET-URI="https://ads.test/ad.m3u8"',
        '#EXTINF:6.0,',
        'seg0.ts',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
    expect(view.needsFull).toBe(true);
  });

  it('switches for HEVC or AC-3 variants, which the light build cannot demux from MPEG-2 TS', async () => {
    const hevc = await loadWithLightBuild(multivariant('#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="hvc1.1.6.L93.B0,mp4a.40.2"', 'https://cdn.test/hevc.m3u8'));
    const ac3 = await loadWithLightBuild(multivariant('#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,ac-3"', 'https://cdn.test/ac3.m3u8'));
    expect(hevc.needsFull).toBe(true);
    expect(ac3.needsFull).toBe(true);
  });

  it('keeps the light build for content steering, which it includes', async () => {
    const view = await loadWithLightBuild(
      multivariant(
        '#EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.test/manifest.json",PATHWAY-ID="CDN-A"',
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,${H264},PATHWAY-ID="CDN-A"`,
        'https://a.test/720p.m3u8',
        `#EXT-X-STREAM-INF:BANDWIDTH=1280000,${H264},PATHWAY-ID="CDN-B"`,
        'https://b.test/720p.m3u8',
      ),
    );
    expect(view.manifest.contentSteering).not.toBeNull();
    expect(view.needsFull).toBe(false);
  });
});
