/**
 * Types for hls.js's light build. Its package exports `hls.js/light` (dist/hls.light.mjs) without a
 * declaration; the API is the full build's (dist/hls.d.ts) minus the controllers the light build
 * leaves out (alternate audio, subtitles, EME, CMCD, interstitials…), which the player does not use.
 */
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
