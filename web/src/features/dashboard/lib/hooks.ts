import { useEffect, useState } from 'react';
import { viewportScale } from './state.ts';

/** The time now, ticking every `ms` (one interval, cleared on unmount). */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** The page's scale from the viewport size, following resizes (1 at 1920×1080, 2 at 3840×2160). */
export function useViewportScale(): number {
  const read = () => viewportScale(window.innerWidth, window.innerHeight);
  const [scale, setScale] = useState(read);
  useEffect(() => {
    const onResize = () => setScale(viewportScale(window.innerWidth, window.innerHeight));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return scale;
}

/** Whether the page is in the browser's full screen, following changes made with Esc too. */
export function useFullscreen(): [boolean, () => void] {
  const [full, setFull] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    // Refused without a user gesture or by policy: the button stays as it is, nothing to report.
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen().catch(() => undefined);
  };
  return [full, toggle];
}
