#!/usr/bin/env bash
# Generates the end-to-end test clip: an H.264/AAC HLS stream with a burned-in timecode, so a person
# looking at a screenshot (or a trace) of two players can tell how far apart they are.
#
#   output: e2e/media/clip/index.m3u8 + seg000.m2ts ... (committed; CI does not need ffmpeg)
#           MPEG-TS segments, named .m2ts rather than .ts so that TypeScript tooling (tsc, next build's
#           type check over **/*.ts) never mistakes them for source files.
#   length: 80 s (the sync e2e seeks to 20 s; the sync benchmark plays a ~60 s session)
#   video:  320x180, 30 fps, H.264 Main, a keyframe every 2 s (one per segment), ~110 kb/s
#   audio:  AAC-LC mono 48 kHz, silent (anullsrc), so autoplay rules treat it like real media
#   size:   under 3 MB in total (checked at the end)
#
# From the HLS clip's first 40 s, without re-encoding, it also writes the other formats the player
# loads on demand: e2e/media/flv/clip.flv (HTTP-FLV, mpegts.js; with a keyframe index in
# its metadata, so that mpegts.js seeks by HTTP Range to the right keyframe, as real VOD FLVs allow),
# e2e/media/dash/manifest.mpd + init/chunk .m4s segments (DASH, dash.js) and e2e/media/mp4/clip.mp4
# (progressive MP4, faststart; the subtitle e2e plays it with e2e/media/subs/clip.srt and clip.ass,
# which are hand-written text files, not generated), and e2e/media/abr/ (the first 20 s in two
# qualities, re-encoded, behind one multivariant playlist). `--derived-only` writes
# just these from the committed HLS clip.
#
# Deterministic: fixed sources, one encoder thread, bitexact flags and no metadata, so re-running it
# yields the same bytes for the same ffmpeg build.
set -euo pipefail

cd "$(dirname "$0")/.."
out_dir="e2e/media/clip"
duration_s=80
max_bytes=$((3 * 1024 * 1024))

command -v ffmpeg >/dev/null || { echo "ffmpeg is required to generate the test media" >&2; exit 1; }

# drawtext needs a font file; testsrc2 carries its own moving pattern, so without a font the clip
# still shows motion, just no readable timecode.
font=""
for candidate in /usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf; do
  if [[ -f "$candidate" ]]; then font="$candidate"; break; fi
done

video_filter="null"
if [[ -n "$font" ]]; then
  # t with two decimals (e.g. "t=12.33") plus the frame number; eif's width argument zero-pads.
  timecode="t=%{eif\\:floor(t)\\:d\\:2}.%{eif\\:mod(floor(t*100)\\,100)\\:d\\:2}  f=%{frame_num}"
  video_filter="drawbox=x=0:y=0:w=iw:h=44:color=black@1:t=fill,drawtext=fontfile=${font}:text='${timecode}':fontsize=26:fontcolor=white:x=10:y=9"
else
  echo "no DejaVu font found: the clip gets testsrc2's own pattern without a text timecode" >&2
fi

derive_formats() {
  local derived_s=40 flv_dir="e2e/media/flv" dash_dir="e2e/media/dash" mp4_dir="e2e/media/mp4" abr_dir="e2e/media/abr"
  rm -rf "$flv_dir" "$dash_dir" "$mp4_dir" "$abr_dir"
  mkdir -p "$flv_dir" "$dash_dir" "$mp4_dir" "$abr_dir"
  ffmpeg -hide_banner -loglevel error -y -allowed_extensions ALL -extension_picky 0 -i "$out_dir/index.m3u8" -t "$derived_s" -c copy -bsf:a aac_adtstoasc \
    -map_metadata -1 -fflags +bitexact -movflags +faststart -f mp4 "$mp4_dir/clip.mp4"
  ffmpeg -hide_banner -loglevel error -y -allowed_extensions ALL -extension_picky 0 -i "$out_dir/index.m3u8" -t "$derived_s" -c copy -bsf:a aac_adtstoasc \
    -map_metadata -1 -fflags +bitexact -flvflags add_keyframe_index -f flv "$flv_dir/clip.flv"
  ffmpeg -hide_banner -loglevel error -y -allowed_extensions ALL -extension_picky 0 -i "$out_dir/index.m3u8" -t "$derived_s" -c copy -bsf:a aac_adtstoasc -tag:v avc1 -tag:a mp4a \
    -map_metadata -1 -fflags +bitexact -f dash -seg_duration 2 -use_template 1 -use_timeline 0 \
    -init_seg_name 'init-$RepresentationID$.m4s' -media_seg_name 'chunk-$RepresentationID$-$Number%05d$.m4s' \
    "$dash_dir/manifest.mpd"
  # Two qualities of the first 20 s (320x180 and 160x90, re-encoded) behind one multivariant
  # playlist, for the player's quality menu.
  ffmpeg -hide_banner -loglevel error -y -allowed_extensions ALL -extension_picky 0 -i "$out_dir/index.m3u8" -t 20 \
    -filter_complex "[0:v]split=2[v1][v2];[v2]scale=160:90[v2o]" -map "[v1]" -map "[v2o]" -map 0:a -map 0:a \
    -c:v libx264 -profile:v main -preset medium -pix_fmt yuv420p -threads 1 -g 60 -keyint_min 60 -sc_threshold 0 -force_key_frames "expr:gte(t,n_forced*2)" \
    -b:v:0 110k -maxrate:v:0 140k -bufsize:v:0 280k -b:v:1 40k -maxrate:v:1 60k -bufsize:v:1 120k \
    -c:a aac -b:a 24k -ac 1 -ar 48000 \
    -map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    -f hls -hls_time 2 -hls_playlist_type vod -hls_flags independent_segments \
    -var_stream_map "v:0,a:0 v:1,a:1" -master_pl_name index.m3u8 \
    -hls_segment_filename "$abr_dir/%v/seg%03d.m2ts" "$abr_dir/%v/index.m3u8"
  echo "wrote $abr_dir ($(du -cb "$abr_dir" | tail -n1 | cut -f1) bytes)"
  echo "wrote $flv_dir ($(du -cb "$flv_dir" | tail -n1 | cut -f1) bytes), $dash_dir ($(du -cb "$dash_dir" | tail -n1 | cut -f1) bytes) and $mp4_dir ($(du -cb "$mp4_dir" | tail -n1 | cut -f1) bytes)"
}

if [[ "${1:-}" == "--derived-only" ]]; then
  derive_formats
  exit 0
fi

rm -rf "$out_dir"
mkdir -p "$out_dir"

ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=320x180:rate=30:duration=${duration_s}" \
  -f lavfi -i "anullsrc=channel_layout=mono:sample_rate=48000" \
  -t "$duration_s" \
  -vf "$video_filter" \
  -c:v libx264 -profile:v main -preset medium -pix_fmt yuv420p -threads 1 \
  -b:v 100k -maxrate 140k -bufsize 280k \
  -g 60 -keyint_min 60 -sc_threshold 0 -force_key_frames "expr:gte(t,n_forced*2)" \
  -c:a aac -b:a 24k -ac 1 -ar 48000 \
  -map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
  -f hls -hls_time 2 -hls_playlist_type vod -hls_flags independent_segments \
  -hls_segment_filename "$out_dir/seg%03d.m2ts" \
  "$out_dir/index.m3u8"

total_bytes=$(du -cb "$out_dir" | tail -n1 | cut -f1)
segments=$(find "$out_dir" -name 'seg*.m2ts' | wc -l)
echo "wrote $out_dir: $segments segments, $total_bytes bytes"
if (( total_bytes >= max_bytes )); then
  echo "test media is $total_bytes bytes, over the $max_bytes byte budget" >&2
  exit 1
fi

derive_formats
