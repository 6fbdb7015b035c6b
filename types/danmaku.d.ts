/** The DOM-engine-only build of `danmaku` has the package's types. */
declare module 'danmaku/dist/esm/danmaku.dom.js' {
  import Danmaku from 'danmaku';
  export default Danmaku;
}
