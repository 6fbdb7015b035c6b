/** @jest-environment node */
/**
 * Probing, planning and the HLS of a conversion (docs/transcode.md): real files made by ffmpeg
 * (e2e/support/conversion-media.ts) read by Debian's ffprobe, the least work each needs to play in a
 * browser, and runs of Debian's ffmpeg whose segments line up whether they start at 0 or at a seek.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeConversionMedia, type ConversionMedia } from '../e2e/support/conversion-media';
import { tempDir, until } from './test-support/harness';
import { Conversion, ConversionError } from './transcode/conversion';
import { Converter, NOT_MEDIA, TOO_LONG_TO_CONVERT, TOO_LARGE_TO_CONVERT } from './transcode/converter';
import { workingHardwareEncoders } from './transcode/encoders';
import { ffmpegArgs, segmentStarts, vodPlaylist } from './transcode/hls';
import { ConversionLimitError, ConversionRegistry, REPLACEABLE_AFTER_MS, TOO_MANY_CONVERSIONS, TOO_MANY_USER_CONVERSIONS } from './transcode/registry';
import { planConversion, PlanError, playsInBrowsers } from './transcode/plan';
import { probeKeyframes, probeMedia, ProbeError, readProbe, type MediaProbe } from './transcode/probe';

// Each test runs Debian's ffmpeg for real: ten conversions at once take 2–3 s here alone and more
// than jest's 5 s when the suite shares the machine's two cores with the other workers.
jest.setTimeout(30_000);

let media: ConversionMedia;

beforeAll(() => {
  media = makeConversionMedia(path.join(tempDir('conversion-media-'), 'media'));
});

/** What a plan does, in short: [picture, sound, work]. */
const summary = (probe: MediaProbe, choice = {}) => {
  const plan = planConversion(probe, choice);
  return [plan.video && `${plan.video.action} ${plan.video.reason}`, plan.audio && `${plan.audio.action} ${plan.audio.reason}`, plan.work];
};

describe('probeMedia', () => {
  it('reads the streams of an HEVC film with two sounds and two subtitles', async () => {
    const probe = await probeMedia(media.hevcEac3);
    expect(probe.container).toBe('matroska,webm');
    expect(probe.durationSec).toBeGreaterThan(1.5);
    expect(probe.streams.map((stream) => [stream.index, stream.kind, stream.codec, stream.language, stream.channels])).toEqual([
      [0, 'video', 'hevc', '', 0],
      [1, 'audio', 'eac3', 'eng', 6],
      [2, 'audio', 'ac3', 'jpn', 2],
      [3, 'subtitle', 'subrip', 'eng', 0],
      [4, 'subtitle', 'ass', 'jpn', 0],
    ]);
    expect(probe.streams[1]).toEqual(expect.objectContaining({ title: 'English 5.1', isDefault: true }));
    expect(probe.streams[0]).toEqual(expect.objectContaining({ width: 160, height: 90, pixelFormat: 'yuv420p' }));
  });

  it('refuses what is not media, and a file that is not there', async () => {
    await expect(probeMedia(media.notMedia)).rejects.toThrow(ProbeError);
    await expect(probeMedia(path.join(path.dirname(media.notMedia), 'gone.mkv'))).rejects.toThrow(/No such file/);
    await expect(probeMedia(media.h264AacMkv, '/nonexistent/ffprobe')).rejects.toThrow(/ffprobe did not start/);
    expect(() => readProbe('{"streams": []}')).toThrow('not media');
    expect(() => readProbe('not json')).toThrow('not media');
  });
});

describe('planConversion', () => {
  it('does the least work for each kind of file', async () => {
    const plans = await Promise.all(
      (['hevcEac3', 'trueHd', 'ac3Mp4', 'dts', 'h264TenBit', 'h264AacMkv'] as const).map(async (name) => [name, ...summary(await probeMedia(media[name]))]),
    );
    expect(plans).toEqual([
      ['hevcEac3', 'convert hevc', 'convert eac3', 'video'],
      ['trueHd', 'copy h264', 'convert truehd', 'audio'],
      ['ac3Mp4', 'copy h264', 'convert ac3', 'audio'],
      ['dts', 'copy h264', 'convert dts', 'audio'],
      ['h264TenBit', 'convert h264 yuv420p10le', 'copy aac', 'video'],
      ['h264AacMkv', 'copy h264', 'copy aac', 'remux'],
    ]);
  });

  it('plays the chosen sound, offers the text subtitles, and converts a picture taller than allowed', async () => {
    const probe = await probeMedia(media.hevcEac3);
    const plan = planConversion(probe, { audioIndex: 2 });
    expect(plan.audio).toEqual({ index: 2, action: 'convert', reason: 'ac3' });
    expect(plan.audioTracks.map((track) => [track.index, track.language, track.chosen])).toEqual([
      [1, 'eng', false],
      [2, 'jpn', true],
    ]);
    expect(plan.subtitles).toEqual([
      { index: 3, format: 'vtt', language: 'eng', title: '' },
      { index: 4, format: 'ass', language: 'jpn', title: '' },
    ]);
    expect(() => planConversion(probe, { audioIndex: 3 })).toThrow(new PlanError('no such audio track'));
    const small = await probeMedia(media.h264AacMkv);
    expect(summary(small, { maxHeight: 72 })).toEqual(['convert 90 px > 72', 'copy aac', 'video']);
    expect(summary(small, { maxHeight: 1080 })).toEqual(['copy h264', 'copy aac', 'remux']);
  });

  it('burns an image subtitle only when chosen, and refuses a file with nothing to play', () => {
    const probe: MediaProbe = {
      durationSec: 60,
      sizeBytes: 0,
      container: 'matroska,webm',
      streams: [
        { index: 0, kind: 'video', codec: 'h264', profile: 'High', language: '', title: '', isDefault: true, width: 1920, height: 1080, pixelFormat: 'yuv420p', channels: 0, isCoverArt: false },
        { index: 1, kind: 'audio', codec: 'aac', profile: 'LC', language: 'eng', title: '', isDefault: true, width: 0, height: 0, pixelFormat: '', channels: 2, isCoverArt: false },
        { index: 2, kind: 'subtitle', codec: 'hdmv_pgs_subtitle', profile: '', language: 'fre', title: 'Forced', isDefault: false, width: 0, height: 0, pixelFormat: '', channels: 0, isCoverArt: false },
      ],
    };
    expect(planConversion(probe)).toEqual(expect.objectContaining({ work: 'remux', subtitles: [], imageSubtitles: [{ index: 2, language: 'fre', title: 'Forced' }] }));
    expect(summary(probe, { burnSubtitleIndex: 2 })).toEqual(['convert burning subtitle 2', 'copy aac', 'video']);
    expect(() => planConversion(probe, { burnSubtitleIndex: 1 })).toThrow(new PlanError('no such image subtitle'));
    expect(() => planConversion({ ...probe, streams: [probe.streams[2]] })).toThrow(new PlanError('nothing to play'));
    // A music file's cover is not a picture to convert.
    const song: MediaProbe = { ...probe, streams: [{ ...probe.streams[0], codec: 'mjpeg', isCoverArt: true }, probe.streams[1]] };
    expect(summary(song)).toEqual([null, 'copy aac', 'remux']);
  });
});

describe('playsInBrowsers', () => {
  it('leaves alone only what every browser plays with the engine its address picks', async () => {
    const verdicts = await Promise.all(
      (['hevcEac3', 'trueHd', 'ac3Mp4', 'dts', 'h264TenBit', 'h264AacMkv', 'h264AacMp4'] as const).map(async (name) => [name, playsInBrowsers(await probeMedia(media[name]), 'native')]),
    );
    expect(verdicts).toEqual([
      ['hevcEac3', false],
      ['trueHd', false],
      ['ac3Mp4', false],
      ['dts', false],
      ['h264TenBit', false],
      // Some browsers play Matroska, others do not.
      ['h264AacMkv', false],
      ['h264AacMp4', true],
    ]);
    const mp4 = await probeMedia(media.h264AacMp4);
    // mpegts.js reads FLV and MPEG-TS of the same codecs; HLS and DASH are not judged.
    expect(playsInBrowsers({ ...mp4, container: 'flv' }, 'flv')).toBe(true);
    expect(playsInBrowsers(await probeMedia(media.ac3Mp4), 'mpegts')).toBe(false);
    expect(playsInBrowsers(await probeMedia(media.hevcEac3), 'hls')).toBe(true);
    const [video, audio] = mp4.streams;
    const webm: MediaProbe = { ...mp4, container: 'matroska,webm', streams: [{ ...video, codec: 'vp9' }, { ...audio, codec: 'opus' }] };
    expect(playsInBrowsers(webm, 'native')).toBe(true);
    expect(playsInBrowsers({ ...webm, container: 'avi' }, 'native')).toBe(false);
    expect(playsInBrowsers({ ...mp4, container: 'mp3', streams: [{ ...audio, codec: 'mp3' }] }, 'native')).toBe(true);
  });
});

describe('HLS of a conversion', () => {
  it('lists every segment of the film from the start: on the grid for a converted picture, at keyframes for a copied one', () => {
    expect(segmentStarts(10.5, null)).toEqual([0, 4, 8]);
    expect(segmentStarts(8, null, 4)).toEqual([0, 4]);
    const playlist = vodPlaylist([0, 4, 8], 10.5, (n) => `/c/${n}.ts?token=t`);
    expect(playlist.split('\n').filter((line) => line.startsWith('#EXTINF') || line.startsWith('/c/'))).toEqual([
      '#EXTINF:4.000000,', '/c/0.ts?token=t',
      '#EXTINF:4.000000,', '/c/1.ts?token=t',
      '#EXTINF:2.500000,', '/c/2.ts?token=t',
    ]);
    expect(playlist).toContain('#EXT-X-TARGETDURATION:4');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    // Keyframes every 2.4 s: each segment starts at the first keyframe 4 s or more after the last start.
    const starts = segmentStarts(13, [0, 2.4, 4.8, 7.2, 9.6, 12]);
    expect(starts).toEqual([0, 4.8, 9.6]);
    expect(vodPlaylist(starts, 13, String)).toContain('#EXT-X-TARGETDURATION:5');
    for (const duration of [0, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => segmentStarts(duration, null)).toThrow('a conversion needs a known duration');
  });

  /** What ffmpeg's MPEG-TS muxer adds to every timestamp (its default `muxdelay` and `muxpreload`, 0.7 s each). */
  const MPEGTS_DELAY_SEC = 1.4;
  /** Runs ffmpeg with `args`. */
  const run = (args: string[]) => new Promise<void>((resolve, reject) => execFile('ffmpeg', args, (error) => (error ? reject(error) : resolve())));
  /** The first timestamp (s) of a stream of `kind` in one segment file, as the player reads it. */
  const firstPts = async (file: string, kind: 'v' | 'a') => {
    const out = await new Promise<string>((resolve, reject) => execFile('ffprobe', ['-v', 'error', '-select_streams', `${kind}:0`, '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file], (error, stdout) => (error ? reject(error) : resolve(stdout))));
    return parseFloat(out.trim().split('\n')[0]);
  };

  it('writes the same timestamps from a run started at a far seek as from the start', async () => {
    const plan = planConversion(await probeMedia(media.hevcEac3));
    const starts = segmentStarts(2, null, 1);
    const dir = tempDir('runs-');
    await run(ffmpegArgs(plan, { input: media.hevcEac3, outDir: dir, starts, startSegment: 0, run: 1, listName: 'run1.csv', segmentSec: 1, maxHeight: 72 }));
    await run(ffmpegArgs(plan, { input: media.hevcEac3, outDir: dir, starts, startSegment: 1, run: 2, listName: 'run2.csv', segmentSec: 1, maxHeight: 72 }));
    expect(fs.readdirSync(dir).sort()).toEqual(['run1-seg0.ts', 'run1-seg1.ts', 'run1.csv', 'run2-seg1.ts', 'run2.csv']);
    const [fromStart, fromSeek] = [path.join(dir, 'run1-seg1.ts'), path.join(dir, 'run2-seg1.ts')];
    // Segment 1's picture starts at 1 s of the source's clock either way.
    expect(await firstPts(fromSeek, 'v')).toBeCloseTo(await firstPts(fromStart, 'v'), 3);
    expect(await firstPts(fromSeek, 'v')).toBeCloseTo(1 + MPEGTS_DELAY_SEC, 3);
    // The sound of the run from the seek starts at the seek point less the AAC encoder's priming
    // (1024 samples at 48 kHz): on the same clock, no later than the picture.
    const sound = await firstPts(fromSeek, 'a');
    expect(sound).toBeGreaterThanOrEqual((await firstPts(fromSeek, 'v')) - 1024 / 48_000 - 0.001);
    expect(sound).toBeLessThanOrEqual(await firstPts(fromSeek, 'v'));
    expect((await probeMedia(fromStart)).streams).toEqual([expect.objectContaining({ codec: 'h264', height: 72 }), expect.objectContaining({ codec: 'aac', channels: 2 })]);
  });

  it('copies a picture browsers decode, cut at its own keyframes, from the start or from a seek', async () => {
    const probe = await probeMedia(media.h264Ac3Long);
    const plan = planConversion(probe);
    expect(plan.work).toBe('audio');
    const keyframes = await probeKeyframes(media.h264Ac3Long, plan.video?.index ?? -1);
    // MKV starts the picture 5 ms late (the encoder's delay): times are read from the first keyframe.
    const since = (times: number[]) => times.map((time) => Number((time - keyframes[0]).toFixed(3)));
    expect(since(keyframes.slice(0, 3))).toEqual([0, 2.4, 4.8]);
    const starts = segmentStarts(probe.durationSec, keyframes);
    expect(since(starts.slice(1))).toEqual([4.8, 9.6]);
    const dir = tempDir('copy-runs-');
    await run(ffmpegArgs(plan, { input: media.h264Ac3Long, outDir: dir, starts, startSegment: 0, run: 1, listName: 'run1.csv' }));
    await run(ffmpegArgs(plan, { input: media.h264Ac3Long, outDir: dir, starts, startSegment: 2, run: 2, listName: 'run2.csv' }));
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.ts')).sort()).toEqual(['run1-seg0.ts', 'run1-seg1.ts', 'run1-seg2.ts', 'run2-seg2.ts']);
    // Each segment's picture starts at its keyframe, on the source's clock, whichever run wrote it.
    for (const file of ['run1-seg2.ts', 'run2-seg2.ts']) expect(await firstPts(path.join(dir, file), 'v')).toBeCloseTo(starts[2] + MPEGTS_DELAY_SEC, 3);
    expect(await firstPts(path.join(dir, 'run1-seg1.ts'), 'v')).toBeCloseTo(starts[1] + MPEGTS_DELAY_SEC, 3);
    expect((await probeMedia(path.join(dir, 'run2-seg2.ts'))).streams).toEqual([expect.objectContaining({ codec: 'h264' }), expect.objectContaining({ codec: 'aac' })]);
  });
});

describe('Conversion', () => {
  const open = async (input: string, dir = tempDir('conversion-')) =>
    new Conversion({ input, plan: planConversion(await probeMedia(media.hevcLong)), starts: segmentStarts(12, null, 1), dir, segmentSec: 1, maxHeight: 72 });

  it('starts at the segment asked for, not at the beginning, and starts again only for one it will not reach soon', async () => {
    const conversion = await open(media.hevcLong);
    try {
      expect(conversion.segments).toBe(12);
      const ten = await conversion.segment(10);
      expect(path.basename(ten)).toBe('run1-seg10.ts');
      // Nothing before segment 10 was made to get it.
      expect(fs.readdirSync(path.dirname(ten)).filter((name) => name.endsWith('.ts')).every((name) => /seg1[01]\.ts$/.test(name))).toBe(true);
      await conversion.segment(11);
      expect(conversion.runStarts).toEqual([10]);
      // Back before the run's start: a run from there.
      await conversion.segment(2);
      expect(path.basename(await conversion.segment(3))).toBe('run2-seg3.ts');
      expect(conversion.runStarts).toEqual([10, 2]);
      // What the first run wrote is still served.
      expect(path.basename(await conversion.segment(10))).toMatch(/^run[12]-seg10\.ts$/);
      await expect(conversion.segment(12)).rejects.toThrow(RangeError);
    } finally {
      conversion.close();
    }
  });

  it('serves ten viewers who seek to ten places at once, each in turn, failing none', async () => {
    const conversion = await open(media.hevcLong);
    try {
      const asked = [11, 2, 9, 5, 0, 7, 3, 10, 6, 1];
      const answers = await Promise.allSettled(asked.map((n) => conversion.segment(n)));
      expect(answers.map((answer) => answer.status)).toEqual(asked.map(() => 'fulfilled'));
      expect(answers.map((answer) => (answer.status === 'fulfilled' ? Number(/seg(\d+)\.ts$/.exec(answer.value)?.[1]) : -1))).toEqual(asked);
    } finally {
      conversion.close();
    }
  });

  it('pauses ffmpeg once it is far enough ahead of every viewer, and goes on when one comes closer', async () => {
    const conversion = new Conversion({ input: media.hevcLong, plan: planConversion(await probeMedia(media.hevcLong)), starts: segmentStarts(12, null, 1), dir: tempDir('conversion-'), segmentSec: 1, maxHeight: 72, leadSegments: 2, throttleEveryMs: 10 });
    const written = () => fs.readdirSync(path.dirname(first)).filter((name) => /^run1-seg\d+\.ts$/.test(name)).length;
    const first = await conversion.segment(0);
    try {
      await until(() => conversion.paused, 'ffmpeg paused');
      // Segment 0 asked for, two more ahead, and what was written before ffmpeg stopped: not the film.
      const made = written();
      expect(made).toBeGreaterThanOrEqual(3);
      expect(made).toBeLessThan(10);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(written()).toBe(made);
      // A viewer at segment 3: the same run goes on.
      await conversion.segment(3);
      await until(() => written() > made + 1, 'ffmpeg resumed');
      expect(conversion.runStarts).toEqual([0]);
    } finally {
      conversion.close();
    }
  });

  it('says when ffmpeg cannot convert the input, and stops once closed', async () => {
    const broken = await open(media.notMedia);
    await expect(broken.segment(0)).rejects.toThrow(/^conversion failed: /);
    broken.close();
    const dir = tempDir('conversion-');
    const closed = await open(media.hevcLong, dir);
    closed.close();
    expect(fs.existsSync(dir)).toBe(false);
    await expect(closed.segment(0)).rejects.toThrow(new ConversionError('the conversion was closed'));
  });
});

describe('hardware encoders', () => {
  it('are offered only when a test encode with the arguments a conversion uses succeeds', async () => {
    // An ffmpeg whose build lists VA-API and NVENC, where only NVENC's arguments encode (as on a
    // machine with an NVIDIA card and no VA-API driver); it records what each test was run with.
    const dir = tempDir('fake-ffmpeg-');
    const fake = path.join(dir, 'ffmpeg');
    const log = path.join(dir, 'runs.log');
    fs.writeFileSync(fake, `#!/bin/sh
echo "$*" >> '${log}'
case "$*" in
  *-encoders*) printf ' V....D h264_nvenc  NVIDIA NVENC H.264 encoder\n V....D h264_vaapi  H.264/AVC (VAAPI)\n V..... libx264\n'; exit 0 ;;
  *"h264_nvenc -preset p4 -forced-idr 1 -force_key_frames"*) exit 0 ;;
  *) exit 1 ;;
esac
`);
    fs.chmodSync(fake, 0o755);
    const runs = () => fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(await workingHardwareEncoders(fake, () => true)).toEqual(['nvenc']);
    // VA-API was tried on its device, with its upload; Quick Sync, not listed, was not tried.
    expect(runs()).toHaveLength(3);
    expect(runs()[1]).toMatch(/-vaapi_device \/dev\/dri\/renderD\d+ .*-vf .*format=nv12,hwupload -c:v h264_vaapi/);
    // Without the devices, only the list is read.
    fs.rmSync(log);
    expect(await workingHardwareEncoders(fake, () => false)).toEqual([]);
    expect(runs()).toHaveLength(1);
    expect(await workingHardwareEncoders(path.join(dir, 'missing'))).toEqual([]);
  });

  it('make the converted picture with the encoder chosen, the sound and segments as ever', () => {
    const plan = planConversion({
      durationSec: 8,
      sizeBytes: 0,
      container: 'matroska,webm',
      streams: [{ index: 0, kind: 'video', codec: 'hevc', profile: 'Main', language: '', title: '', isDefault: true, width: 1920, height: 1080, pixelFormat: 'yuv420p', channels: 0, isCoverArt: false }],
    });
    const options = { input: 'in.mkv', outDir: '/tmp/x', starts: [0, 4], startSegment: 0, run: 1, listName: 'run1.csv', maxHeight: 720 };
    const line = (encoder?: 'vaapi' | 'nvenc' | 'qsv') => ffmpegArgs(plan, { ...options, encoder }).join(' ');
    expect(line()).toContain("-map 0:0 -vf scale=-2:'min(ih,720)' -c:v libx264 -preset veryfast -pix_fmt yuv420p -force_key_frames expr:gte(t,n_forced*4)");
    expect(line('vaapi')).toMatch(/^-hide_banner .*-vaapi_device \S+ .*-i in\.mkv .*-vf scale=-2:'min\(ih,720\)',format=nv12,hwupload -c:v h264_vaapi -force_key_frames/);
    expect(line('nvenc')).toContain('-c:v h264_nvenc -preset p4 -forced-idr 1 -force_key_frames expr:gte(t,n_forced*4)');
    expect(line('qsv')).toMatch(/-init_hw_device qsv=qsv -filter_hw_device qsv .*-i in\.mkv .*hwupload=extra_hw_frames=64 -c:v h264_qsv/);
    expect(line('nvenc')).toContain('-f segment -segment_format mpegts');
  });
});

describe('Converter', () => {
  it('converts a picture it could copy when its keyframes take too long to read, and copies it once they are known', async () => {
    const converter = new Converter(tempDir('converter-'), 'ffmpeg', undefined, 0);
    const limits = { maxConversions: 2, maxPerUser: 2, maxHeight: 1080, maxMinutes: 240, maxGigabytes: 100, encoder: 'software' as const };
    const film = () => media.h264Ac3Long;
    try {
      const first = await converter.prepare('film', film, {}, limits, 'u');
      expect([first.plan.video?.action, first.plan.video?.reason, first.starts]).toEqual(['convert', 'keyframes not known', [0, 4, 8]]);
      await until(async () => (await converter.prepare('film', film, {}, limits, 'u')).plan.video?.action === 'copy', 'the keyframes read');
      const later = await converter.prepare('film', film, {}, limits, 'u');
      expect(later.starts.map((start) => Math.round(start * 10) / 10)).toEqual([0, 4.8, 9.6]);
      await expect(converter.prepare('text', () => media.notMedia, {}, limits, 'u')).rejects.toThrow(NOT_MEDIA);
      await expect(converter.prepare('film', film, {}, { ...limits, maxMinutes: 0.1 }, 'u')).rejects.toThrow(TOO_LONG_TO_CONVERT);
      // Its size, as the file tells it: the limit is in GB (10⁹ bytes).
      const { size } = fs.statSync(media.h264Ac3Long);
      expect((await converter.probe('film', film, 'u')).sizeBytes).toBe(size);
      await expect(converter.prepare('film', film, {}, { ...limits, maxGigabytes: (size - 1) / 1e9 }, 'u')).rejects.toThrow(TOO_LARGE_TO_CONVERT);
      await expect(converter.prepare('film', film, {}, { ...limits, maxGigabytes: size / 1e9 }, 'u')).resolves.toBeDefined();
    } finally {
      converter.close();
    }
  });
});

describe('ConversionRegistry', () => {
  const options = async () => {
    const plan = planConversion(await probeMedia(media.hevcLong));
    return () => ({ input: media.hevcLong, plan, starts: segmentStarts(12, null, 1), segmentSec: 1, maxHeight: 72 });
  };

  it('shares one conversion per key, holds the limits, and closes what nobody uses', async () => {
    const dir = tempDir('conversions-');
    fs.mkdirSync(path.join(dir, 'left-by-a-crash'));
    const registry = new ConversionRegistry(dir, { maxConversions: 2, maxPerUser: 1, idleCloseMs: 60_000 });
    const later = () => Date.now() + 61_000;
    try {
      expect(fs.existsSync(path.join(dir, 'left-by-a-crash'))).toBe(false);
      const make = await options();
      const first = registry.get('movie-1:0:audio=1', 'alice', make);
      expect(registry.get('movie-1:0:audio=1', 'bob', make)).toBe(first);
      expect(() => registry.get('movie-1:0:audio=2', 'alice', make)).toThrow(new ConversionLimitError(TOO_MANY_USER_CONVERSIONS));
      const second = registry.get('movie-2:0', 'bob', make);
      expect(() => registry.get('movie-3:0', 'carol', make)).toThrow(new ConversionLimitError(TOO_MANY_CONVERSIONS));
      expect([registry.count(), registry.count('alice'), registry.count('carol')]).toEqual([2, 1, 0]);
      registry.closeWhere((key) => key.startsWith('movie-2:'));
      expect(registry.count()).toBe(1);
      await expect(second.segment(1)).rejects.toThrow('the conversion was closed');
      // Someone waits on a segment: not idle, however long ago the conversion was asked for.
      const waiting = first.segment(5);
      registry.closeIdle(later());
      expect(registry.count()).toBe(1);
      await waiting;
      // Nobody asks anything any more: closed after the idle time, its directory gone.
      registry.closeIdle(Date.now() + 1000);
      expect(registry.count()).toBe(1);
      registry.closeIdle(later());
      expect(registry.count()).toBe(0);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      registry.close();
    }
  });
  it('lets a new conversion take the place of one nobody has asked anything of for a while (the room moved on)', async () => {
    const registry = new ConversionRegistry(tempDir('conversions-'), { maxConversions: 2, maxPerUser: 1, idleCloseMs: 60_000 });
    const make = await options();
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(now);
      const first = registry.get('film-1', 'alice', make);
      registry.get('film-2', 'bob', make);
      clock.mockReturnValue(now + REPLACEABLE_AFTER_MS - 1000);
      expect(() => registry.get('film-3', 'alice', make)).toThrow(new ConversionLimitError(TOO_MANY_USER_CONVERSIONS));
      // Alice's first film, unasked for long enough: her next one replaces it.
      clock.mockReturnValue(now + REPLACEABLE_AFTER_MS);
      const third = registry.get('film-3', 'alice', make);
      expect(third).not.toBe(first);
      await expect(first.segment(0)).rejects.toThrow('the conversion was closed');
      // The server's limit: carol's takes the place of the least recently used (bob's).
      clock.mockReturnValue(now + 2 * REPLACEABLE_AFTER_MS);
      registry.get('film-3', 'alice', make);
      registry.get('film-4', 'carol', make);
      expect([registry.count('alice'), registry.count('bob'), registry.count('carol')]).toEqual([1, 0, 1]);
    } finally {
      clock.mockRestore();
      registry.close();
    }
  });
});
