import type { Camera, RegionNode } from '@kilowatch/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { featureMessagesReady } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { mockApi, renderScreen } from '../../../testing/render-with-api.tsx';
import { storageKey } from '../lib/layout.ts';

vi.setConfig({ testTimeout: 20_000 });

// hls.js doubled at the module boundary: each instance records what the player asked and lets
// the test fire hls.js events (manifest parsed, fatal errors) into it.
type Handler = (event: string, data: unknown) => void;
const hls = vi.hoisted(() => ({ instances: [] as FakeHls[] }));
interface FakeHls {
  config: { autoStartLoad?: boolean };
  url?: string;
  levels: { details?: unknown }[];
  startLoad: ReturnType<typeof vi.fn>;
  stopLoad: ReturnType<typeof vi.fn>;
  destroy: ReturnType<typeof vi.fn>;
  fire(event: string, data?: unknown): void;
}
vi.mock('hls.js/light', () => {
  class Hls {
    static isSupported = () => true;
    handlers = new Map<string, Handler[]>();
    levels: { details?: unknown }[] = [];
    url?: string;
    startLoad = vi.fn();
    stopLoad = vi.fn();
    destroy = vi.fn();
    constructor(public config: { autoStartLoad?: boolean }) {
      hls.instances.push(this as unknown as FakeHls);
    }
    on(event: string, fn: Handler) {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
    }
    once(event: string, fn: Handler) {
      this.on(event, fn);
    }
    loadSource(url: string) {
      this.url = url;
    }
    attachMedia() {}
    fire(event: string, data: unknown = {}) {
      for (const fn of this.handlers.get(event) ?? []) fn(event, data);
    }
  }
  return {
    default: Hls,
    Events: { MANIFEST_PARSED: 'manifestParsed', LEVEL_LOADED: 'levelLoaded', ERROR: 'error' },
    ErrorTypes: { NETWORK_ERROR: 'networkError', MEDIA_ERROR: 'mediaError' },
  };
});

const { VideoScreen } = await import('./VideoScreen.tsx');

const region = (id: number, name: string): RegionNode => ({
  id,
  parentId: null,
  name,
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 0,
  sort: 0,
  isClick: true,
  children: [],
});

const camera = (over: Partial<Camera>): Camera => ({
  id: 1,
  name: '大门',
  regionId: 1,
  regionName: '一车间',
  thingId: null,
  thingName: null,
  play: { protocol: 'hls', url: 'http://gw/gate.m3u8' },
  recording: null,
  match: null,
  ...over,
});

const CAMERAS = [camera({}), camera({ id: 2, name: '屋顶', play: null })];

const api = (cameras: Camera[]) =>
  mockApi((call) => {
    if (call.path === '/api/video/cameras') return { body: cameras };
    if (call.path === '/api/regions') return { body: [region(1, '一车间')] };
    return undefined;
  });

const tile = (id: number) => screen.getByTestId(`camera-tile-${id}`);

beforeEach(async () => {
  await featureMessagesReady();
  hls.instances.length = 0;
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  useSession.setState({ user: { id: 5 } as never, roles: ['editor'], routes: [] });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('video wall', () => {
  it('says there are no cameras, and shows administrators where to add them', async () => {
    api([]);
    const view = renderScreen(<VideoScreen />, '/video');
    expect(await screen.findByText('还没有摄像头')).toBeTruthy();
    expect(screen.queryByText('去视频监控管理')).toBeNull();
    view.unmount();
    useSession.setState({ roles: ['admin'] });
    renderScreen(<VideoScreen />, '/video');
    const link = (await screen.findByText('去视频监控管理')).closest('a');
    expect(link?.getAttribute('href')).toBe('/device_management/video');
  });

  it("fills the grid with a region's cameras: one loads through hls.js, one has no source", async () => {
    api(CAMERAS);
    renderScreen(<VideoScreen />, '/video');
    fireEvent.click(await screen.findByText('一车间'));
    expect(tile(1).dataset.state).toBe('loading');
    expect(hls.instances.map((h) => h.url)).toEqual(['http://gw/gate.m3u8']);
    expect(tile(2).dataset.state).toBe('noSource');
    expect(
      within(tile(2)).getByText('RTSP 摄像头尚未配置网关播放地址，浏览器无法直接播放 RTSP'),
    ).toBeTruthy();
    // Two cameras: the smallest layout holding them, and it is kept for this user.
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(storageKey(5)) ?? '{}').slots.slice(0, 4)).toEqual([
        1,
        2,
        null,
        null,
      ]),
    );
  });

  it('shows the reason of a fatal error and retries with a new player', async () => {
    api(CAMERAS);
    localStorage.setItem(storageKey(5), JSON.stringify({ layout: 1, slots: [1] }));
    renderScreen(<VideoScreen />, '/video');
    await screen.findByTestId('camera-tile-1');
    const [first] = hls.instances;
    act(() => first?.fire('error', { fatal: true, type: 'networkError', response: { code: 404 } }));
    expect(tile(1).dataset.state).toBe('error');
    expect(within(tile(1)).getByText('视频流地址返回 HTTP 404')).toBeTruthy();
    fireEvent.click(within(tile(1)).getByRole('button', { name: /重试/ }));
    expect(first?.destroy).toHaveBeenCalled();
    expect(hls.instances).toHaveLength(2);
    expect(tile(1).dataset.state).toBe('loading');
  });

  it('says playing once the picture moves', async () => {
    api(CAMERAS);
    localStorage.setItem(storageKey(5), JSON.stringify({ layout: 1, slots: [1] }));
    renderScreen(<VideoScreen />, '/video');
    const video = within(await screen.findByTestId('camera-tile-1')).getByTestId(
      'camera-video',
    ) as HTMLVideoElement;
    Object.defineProperty(video, 'readyState', { value: 4 });
    Object.defineProperty(video, 'paused', { value: false });
    Object.defineProperty(video, 'currentTime', { value: 1.5, writable: true });
    act(() => hls.instances[0]?.fire('manifestParsed'));
    await waitFor(() => expect(tile(1).dataset.state).toBe('playing'));
    expect(within(tile(1)).getByTestId('camera-state').textContent).toBe('播放中');
  });

  it('switches the layout and keeps it', async () => {
    api(CAMERAS);
    renderScreen(<VideoScreen />, '/video');
    fireEvent.click(await screen.findByText('9 画面'));
    expect(screen.getAllByText('从左侧选择摄像头')).toHaveLength(9);
    await waitFor(() => expect(JSON.parse(localStorage.getItem(storageKey(5)) ?? '{}').layout).toBe(9));
  });
});

describe("a device's cameras at an alarm time", () => {
  it("asks for the device's cameras and opens the recording at the moment by program date-time", async () => {
    const t0 = Date.parse('2026-11-24T03:00:00Z');
    const calls = api([
      camera({
        id: 3,
        name: '电表间',
        thingId: 7,
        thingName: '1#变压器',
        match: 'thing',
        recording: { kind: 'hls', url: 'http://nvr/rec.m3u8' },
      }),
      camera({ id: 4, name: '大厅', match: 'region' }),
    ]);
    renderScreen(
      <VideoScreen />,
      `/video?thing=7&at=${encodeURIComponent(new Date(t0 + 5000).toISOString())}`,
    );
    expect(await screen.findByText('设备“1#变压器”的摄像头')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/video/cameras')?.query.get('thingId')).toBe('7');
    expect(within(tile(3)).getByText('录像')).toBeTruthy();
    expect(within(tile(4)).getByText('无录像，显示实时画面')).toBeTruthy();
    const recording = hls.instances.find((h) => h.url === 'http://nvr/rec.m3u8');
    expect(recording?.config.autoStartLoad).toBe(false);
    if (recording) {
      recording.levels = [
        {
          details: {
            fragments: [0, 1, 2, 3].map((i) => ({
              start: i * 2,
              duration: 2,
              programDateTime: t0 + i * 2000,
            })),
          },
        },
      ];
    }
    act(() => recording?.fire('manifestParsed'));
    expect(recording?.startLoad).toHaveBeenCalledWith(5);
  });

  it('says so when the device and its regions have no camera', async () => {
    api([]);
    renderScreen(<VideoScreen />, '/video?thing=8');
    expect(await screen.findByText('该设备及其所在区域没有摄像头')).toBeTruthy();
  });
});
