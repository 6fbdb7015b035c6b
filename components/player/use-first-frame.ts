import { useEffect, useState } from 'react';

/**
 * True once `video` (the player's element; null before it is in the page) has shown its first
 * frame (`loadeddata`, or a readyState of HAVE_CURRENT_DATA already), and false again for another
 * element. What waits for the picture (the danmaku layer, the hall's side parts) waits for this.
 */
export function useFirstFrame(video: HTMLVideoElement | null): boolean {
  const [framed, setFramed] = useState<HTMLVideoElement | null>(null);
  useEffect(() => {
    if (!video) return;
    const onFrame = () => setFramed(video);
    if (video.readyState >= 2) onFrame();
    video.addEventListener('loadeddata', onFrame);
    return () => video.removeEventListener('loadeddata', onFrame);
  }, [video]);
  return video !== null && framed === video;
}
