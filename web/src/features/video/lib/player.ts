import Hls, { ErrorTypes, Events, type LevelDetails, type LevelLoadedData } from 'hls.js/light';
import { offsetAt } from './recording.ts';

/**
 * Plays a source into a <video>: HLS with hls.js (Media Source Extensions), or the browser's own
 * HLS where it has one and no MSE (Safari on iPhone); WebRTC through WHEP (one POST of an SDP
 * offer, RFC 9725); a file (an NVR's MP4) as the element's src. No RTSP: browsers cannot speak it,
 * a gateway turns it into HLS or WebRTC (docs/video.md).
 */

export type PlayerError =
  | { key: 'http'; status: number }
  | { key: 'network' | 'cors' | 'unreachable' | 'media' | 'unsupported' | 'whep' | 'noProgramDateTime' }
  | { key: 'before' | 'after'; first: number; last: number };

export type PlayerState =
  | { state: 'loading' }
  | { state: 'playing' }
  | { state: 'noSignal' }
  | { state: 'error'; error: PlayerError };

export type Source =
  /** `at`: a wall-clock moment found by program date-time; `offset`: seconds into the playlist. */
  | { protocol: 'hls'; url: string; at?: number; offset?: number }
  | { protocol: 'webrtc'; url: string }
  | { protocol: 'file'; url: string; offset?: number };

/**
 * Why a stream address could not be read when the browser only says "network error" (it hides
 * the difference on purpose): a no-cors request resolves, opaquely, when the server answered at
 * all, so what stopped the player was CORS (the gateway sends no Access-Control-Allow-Origin for
 * the console's origin); when that fails too, nothing answered: refused, unreachable or unknown
 * host. HTTP errors (404…) have their status already and never come here.
 */
export async function diagnoseNetwork(url: string, fetchFn: typeof fetch = fetch): Promise<PlayerError> {
  return fetchFn(url, { mode: 'no-cors', cache: 'no-store' }).then(
    (): PlayerError => ({ key: 'cors' }),
    (): PlayerError => ({ key: 'unreachable' }),
  );
}

/** A tile whose picture has not moved for this long says "no signal". */
export const NO_SIGNAL_MS = 8000;
const WATCH_EVERY_MS = 1000;

/** Starts playing; returns the function that stops and releases everything. */
export function play(video: HTMLVideoElement, source: Source, onState: (s: PlayerState) => void): () => void {
  let failed = false;
  const fail = (error: PlayerError) => {
    failed = true;
    onState({ state: 'error', error });
  };
  onState({ state: 'loading' });
  const stop =
    source.protocol === 'hls'
      ? playHls(video, source, fail)
      : source.protocol === 'webrtc'
        ? playWhep(video, source.url, fail)
        : playFile(video, source, fail);
  const unwatch = watchSignal(video, onState, () => failed);
  return () => {
    unwatch();
    stop();
    video.removeAttribute('src');
    video.srcObject = null;
    video.load();
  };
}

/** Playing once the time moves; "no signal" when it stops moving while it should play. */
function watchSignal(video: HTMLVideoElement, onState: (s: PlayerState) => void, failed: () => boolean) {
  let lastTime = -1;
  let lastMove = Date.now();
  let shown: 'loading' | 'playing' | 'noSignal' = 'loading';
  const show = (state: 'playing' | 'noSignal') => {
    if (shown === state || failed()) return;
    shown = state;
    onState({ state });
  };
  const timer = setInterval(() => {
    if (failed() || video.paused || video.ended) {
      lastMove = Date.now();
      return;
    }
    if (video.currentTime !== lastTime) {
      lastTime = video.currentTime;
      lastMove = Date.now();
      if (video.readyState >= 2) show('playing');
    } else if (Date.now() - lastMove > NO_SIGNAL_MS && shown === 'playing') {
      show('noSignal');
    } else if (Date.now() - lastMove > NO_SIGNAL_MS * 2) {
      show('noSignal');
    }
  }, WATCH_EVERY_MS);
  return () => clearInterval(timer);
}

const start = (video: HTMLVideoElement) => {
  // Muted tiles may autoplay; a refusal (a background tab) is retried by the next user gesture.
  video.muted = true;
  video.play().catch(() => undefined);
};

function playHls(
  video: HTMLVideoElement,
  source: { url: string; at?: number; offset?: number },
  fail: (e: PlayerError) => void,
) {
  if (!Hls.isSupported()) {
    if (video.canPlayType('application/vnd.apple.mpegurl')) return playNativeHls(video, source, fail);
    fail({ key: 'unsupported' });
    return () => undefined;
  }
  const { at, offset } = source;
  const seeks = at !== undefined || offset !== undefined;
  // A recording starts loading only once the moment asked for is found in the playlist.
  const hls = new Hls({ autoStartLoad: !seeks });
  let positioned = false;
  const position = (details: LevelDetails) => {
    if (positioned || !seeks) return;
    positioned = true;
    const answer =
      at !== undefined ? offsetAt(details.fragments, at) : { ok: true as const, offset: offset ?? 0 };
    if (!answer.ok) {
      hls.stopLoad();
      fail(
        answer.why === 'noProgramDateTime'
          ? { key: answer.why }
          : { key: answer.why, first: answer.first ?? 0, last: answer.last ?? 0 },
      );
      return;
    }
    hls.startLoad(answer.offset);
    seekWhenReady(video, answer.offset);
    start(video);
  };
  hls.on(Events.MANIFEST_PARSED, () => {
    if (!seeks) return start(video);
    // A media playlist given directly is parsed with its segments; a multivariant one loads a level.
    const details = hls.levels[0]?.details;
    if (details) return position(details);
    hls.once(Events.LEVEL_LOADED, (_event, data: LevelLoadedData) => position(data.details));
    hls.startLoad(-1);
  });
  hls.on(Events.ERROR, (_event, data) => {
    if (!data.fatal) return;
    const status = data.response?.code;
    if (data.type === ErrorTypes.NETWORK_ERROR) {
      if (status) fail({ key: 'http', status });
      else void diagnoseNetwork(source.url).then(fail);
    } else fail({ key: 'media' });
    hls.stopLoad();
  });
  hls.loadSource(source.url);
  hls.attachMedia(video);
  return () => hls.destroy();
}

const seekWhenReady = (video: HTMLVideoElement, offset: number) => {
  if (video.readyState >= 1) video.currentTime = offset;
  else video.addEventListener('loadedmetadata', () => (video.currentTime = offset), { once: true });
};

/** Safari's own HLS: the program date-time of time 0 is `getStartDate()`. */
function playNativeHls(
  video: HTMLVideoElement,
  source: { url: string; at?: number; offset?: number },
  fail: (e: PlayerError) => void,
) {
  const onMetadata = () => {
    if (source.offset !== undefined) video.currentTime = source.offset;
    if (source.at !== undefined) {
      const startDate = (video as HTMLVideoElement & { getStartDate?(): Date }).getStartDate?.();
      const first = startDate?.getTime();
      if (first === undefined || Number.isNaN(first)) return fail({ key: 'noProgramDateTime' });
      const offset = (source.at - first) / 1000;
      const last = first + video.duration * 1000;
      if (offset < 0 || offset > video.duration)
        return fail({ key: offset < 0 ? 'before' : 'after', first, last });
      video.currentTime = offset;
    }
    start(video);
  };
  const onError = () => fail({ key: video.error?.code === 2 ? 'network' : 'media' });
  video.addEventListener('loadedmetadata', onMetadata);
  video.addEventListener('error', onError);
  video.src = source.url;
  return () => {
    video.removeEventListener('loadedmetadata', onMetadata);
    video.removeEventListener('error', onError);
  };
}

function playFile(
  video: HTMLVideoElement,
  source: { url: string; offset?: number },
  fail: (e: PlayerError) => void,
) {
  const onMetadata = () => {
    if (source.offset !== undefined)
      video.currentTime = Math.min(source.offset, video.duration || source.offset);
    start(video);
  };
  const onError = () => fail({ key: video.error?.code === 4 ? 'unsupported' : 'network' });
  video.addEventListener('loadedmetadata', onMetadata);
  video.addEventListener('error', onError);
  video.src = source.url;
  return () => {
    video.removeEventListener('loadedmetadata', onMetadata);
    video.removeEventListener('error', onError);
  };
}

/** How long to wait for ICE candidates before sending the offer with what was gathered. */
const GATHER_MS = 2000;

/** WHEP (RFC 9725): POST the offer as application/sdp, the answer comes back; DELETE the session to end. */
function playWhep(video: HTMLVideoElement, url: string, fail: (e: PlayerError) => void) {
  if (typeof RTCPeerConnection === 'undefined') {
    fail({ key: 'unsupported' });
    return () => undefined;
  }
  const pc = new RTCPeerConnection();
  const abort = new AbortController();
  let session: string | null = null;
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.ontrack = (event) => {
    const [stream] = event.streams;
    if (stream && video.srcObject !== stream) {
      video.srcObject = stream;
      start(video);
    }
  };
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === 'failed') fail({ key: 'whep' });
  };
  (async () => {
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      const timer = setTimeout(resolve, GATHER_MS);
      pc.addEventListener('icegatheringstatechange', () => {
        if (pc.iceGatheringState === 'complete') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/sdp' },
      body: pc.localDescription?.sdp ?? '',
      signal: abort.signal,
    });
    if (!response.ok) return fail({ key: 'http', status: response.status });
    const location = response.headers.get('Location');
    session = location ? new URL(location, url).toString() : null;
    await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
  })().catch((error: unknown) => {
    if (abort.signal.aborted) return;
    if (error instanceof TypeError) void diagnoseNetwork(url).then(fail);
    else fail({ key: 'whep' });
  });
  return () => {
    abort.abort();
    pc.close();
    // Ends the session on the server at once instead of at its timeout.
    if (session) fetch(session, { method: 'DELETE' }).catch(() => undefined);
  };
}
