import type { Camera } from '@kilowatch/contract';
import type { Source } from './player.ts';
import { fillTemplate, isHlsUrl } from './recording.ts';

/** What a tile plays: the live stream, or the recording at `at` (epoch ms) when it has one. */
export function sourceOf(camera: Camera, at: number | null): { source: Source | null; recording: boolean } {
  if (at !== null && camera.recording) {
    if (camera.recording.kind === 'hls')
      return { source: { protocol: 'hls', url: camera.recording.url, at }, recording: true };
    const { url, offset } = fillTemplate(camera.recording.url, at);
    return {
      source: isHlsUrl(url) ? { protocol: 'hls', url, offset } : { protocol: 'file', url, offset },
      recording: true,
    };
  }
  if (!camera.play) return { source: null, recording: false };
  return { source: { protocol: camera.play.protocol, url: camera.play.url }, recording: false };
}
