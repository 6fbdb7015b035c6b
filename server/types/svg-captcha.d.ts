import 'svg-captcha';

declare module 'svg-captcha' {
  /** The module itself is a function that draws `text` as an SVG string; the package's types leave it out. */
  export default function drawCaptcha(text: string, options?: Parameters<typeof create>[0]): string;
}
