/**
 * MPEG-TS segments with something in front of them: SyncTV's `ts_disguised_as_png` setting (on by
 * default in v0.9.11) serves live HLS segments behind a PNG header so that CDNs cache them as images,
 * and the reference client's hls.js loader drops everything before the first TS packet
 * (docs/reference-client.md §5 "hls.js specifics"). Without the same, hls.js cannot parse them.
 */

/** An MPEG-TS packet's length and its first byte (the sync byte). */
const TS_PACKET_BYTES = 188;
const TS_SYNC_BYTE = 0x47;
/** How far into a segment the first packet is looked for (as the reference client does). */
const SCAN_BYTES = 512;

/**
 * The segment from its first MPEG-TS packet on: when it does not start with one but three packets
 * in a row (sync bytes 188 bytes apart) begin within its first 512 bytes, the bytes before them are
 * dropped; anything else (a plain TS segment, fMP4, too short) comes back as it is.
 */
export function stripTsPrefix(data: ArrayBuffer): ArrayBuffer {
  const bytes = new Uint8Array(data);
  if (bytes[0] === TS_SYNC_BYTE) return data;
  const last = Math.min(SCAN_BYTES, bytes.length - 2 * TS_PACKET_BYTES - 1);
  for (let offset = 1; offset < last; offset += 1) {
    if (bytes[offset] === TS_SYNC_BYTE && bytes[offset + TS_PACKET_BYTES] === TS_SYNC_BYTE && bytes[offset + 2 * TS_PACKET_BYTES] === TS_SYNC_BYTE) {
      return data.slice(offset);
    }
  }
  return data;
}
