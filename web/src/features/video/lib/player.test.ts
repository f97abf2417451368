import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { diagnoseNetwork, NO_SIGNAL_MS, type PlayerState, play } from './player.ts';

vi.mock('hls.js/light', () => ({
  default: { isSupported: () => false },
  Events: {},
  ErrorTypes: {},
}));

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A <video> whose clock the test moves. */
function fakeVideo() {
  const video = document.createElement('video');
  let time = 0;
  Object.defineProperty(video, 'readyState', { value: 4 });
  Object.defineProperty(video, 'paused', { value: false });
  Object.defineProperty(video, 'currentTime', { get: () => time, set: (t: number) => (time = t) });
  return { video, tick: (s: number) => (time += s) };
}

describe('player states', () => {
  it('goes loading → playing → no signal when the picture stops, and back when it moves', () => {
    const { video, tick } = fakeVideo();
    const states: PlayerState['state'][] = [];
    const stop = play(video, { protocol: 'file', url: 'http://nvr/a.mp4' }, (s) => states.push(s.state));
    tick(1);
    vi.advanceTimersByTime(1000);
    expect(states).toEqual(['loading', 'playing']);
    vi.advanceTimersByTime(NO_SIGNAL_MS + 1000);
    expect(states.at(-1)).toBe('noSignal');
    tick(1);
    vi.advanceTimersByTime(1000);
    expect(states.at(-1)).toBe('playing');
    stop();
  });

  it('says a browser without MSE or native HLS cannot play HLS', () => {
    const { video } = fakeVideo();
    vi.spyOn(video, 'canPlayType').mockReturnValue('');
    const states: PlayerState[] = [];
    play(video, { protocol: 'hls', url: 'http://gw/a.m3u8' }, (s) => states.push(s));
    expect(states.at(-1)).toEqual({ state: 'error', error: { key: 'unsupported' } });
  });

  it("uses the browser's own HLS where it has one, seeking a moment from getStartDate", () => {
    const { video } = fakeVideo();
    vi.spyOn(video, 'canPlayType').mockReturnValue('maybe');
    const start = Date.parse('2026-11-24T03:00:00Z');
    Object.assign(video, { getStartDate: () => new Date(start) });
    Object.defineProperty(video, 'duration', { value: 12 });
    play(video, { protocol: 'hls', url: 'http://gw/a.m3u8', at: start + 4000 }, () => undefined);
    expect(video.src).toBe('http://gw/a.m3u8');
    video.dispatchEvent(new Event('loadedmetadata'));
    expect(video.currentTime).toBe(4);
  });
});

describe('diagnoseNetwork', () => {
  it('tells CORS (the server answered a no-cors request) from nothing answering', async () => {
    const answered = vi.fn(async () => new Response(null, { status: 200 }));
    expect(await diagnoseNetwork('http://cam/live.m3u8', answered as unknown as typeof fetch)).toEqual({
      key: 'cors',
    });
    expect(answered).toHaveBeenCalledWith('http://cam/live.m3u8', { mode: 'no-cors', cache: 'no-store' });
    const refused = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await diagnoseNetwork('http://cam/live.m3u8', refused as unknown as typeof fetch)).toEqual({
      key: 'unreachable',
    });
  });
});
