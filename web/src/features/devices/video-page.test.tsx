import { STREAM_URL_PATTERN, type Video, VideoInput } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toVideoInput, VideoPage } from './components/VideoPage.tsx';
import { clickButton, mockApi, page, renderScreen } from './test-utils.tsx';

const video: Video = {
  id: 1,
  name: '1号车间入口',
  streamUrl: 'rtsp://10.0.0.5/live',
  regionId: 4,
  regionName: '一车间',
  thingId: null,
  thingName: null,
  createdAt: '',
  protocol: 'rtsp',
  playUrl: null,
  recordingKind: 'none',
  recordingUrl: null,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('video labels screen', () => {
  it('lists labels with their binding and where they play', async () => {
    mockApi({ 'GET /api/videos': () => page([video]) });
    renderScreen(<VideoPage />, '/device_management/video');
    expect(await screen.findByText('1号车间入口')).toBeTruthy();
    expect(screen.getByText('区域：一车间')).toBeTruthy();
    expect(screen.getByText(/在“视频监控”中观看/)).toBeTruthy();
    // An RTSP camera without a gateway address cannot play yet: the table says so.
    expect(screen.getAllByText('RTSP（经网关）').length).toBeGreaterThan(0);
    expect(screen.getAllByText('未接网关').length).toBeGreaterThan(0);
  });

  it('rejects a stream address with another scheme', async () => {
    const calls = mockApi({ 'GET /api/videos': () => page([]), 'GET /api/regions': () => [] });
    renderScreen(<VideoPage />, '/device_management/video');
    fireEvent.click(await screen.findByTestId('crud-create'));
    const dialog = (await screen.findByRole('dialog')) as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '门口' } });
    fireEvent.change(within(dialog).getByLabelText('视频流地址'), { target: { value: 'ftp://cam/1' } });
    clickButton(dialog, '确定');
    expect(
      await within(dialog).findByText(
        '视频流地址须以 http://、https://、rtsp://、rtsps://、rtmp://、webrtc://、ws:// 或 wss:// 开头',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(false));
  });

  it('saves an RTSP camera at an rtsps:// (RTSP over TLS) address, as the server accepts', async () => {
    const calls = mockApi({
      'GET /api/videos': () => page([]),
      'GET /api/regions': () => [],
      'POST /api/videos': (call) => ({ ...video, ...(call.body as object) }),
    });
    renderScreen(<VideoPage />, '/device_management/video');
    fireEvent.click(await screen.findByTestId('crud-create'));
    const dialog = (await screen.findByRole('dialog')) as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '门口' } });
    fireEvent.click(within(dialog).getByText('RTSP（经网关）'));
    fireEvent.change(within(dialog).getByLabelText('视频流地址'), {
      target: { value: 'rtsps://u:p@10.0.0.5:322/live' },
    });
    clickButton(dialog, '确定');
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toBeTruthy());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      streamUrl: 'rtsps://u:p@10.0.0.5:322/live',
      protocol: 'rtsp',
    });
  });

  it('accepts the contract schemes only', () => {
    // The form's rule is the server's schema pattern, not a copy of it.
    expect(VideoInput.properties.streamUrl).toMatchObject({ pattern: STREAM_URL_PATTERN.source });
    for (const ok of [
      'http://a/b.m3u8',
      'https://a',
      'rtsp://a:554/x',
      'rtsps://a:322/x',
      'rtmp://a',
      'webrtc://a',
      'ws://a',
      'wss://a',
    ])
      expect(STREAM_URL_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['ftp://a', 'rtsp:/a', 'a.m3u8', 'javascript:alert(1)'])
      expect(STREAM_URL_PATTERN.test(bad), bad).toBe(false);
  });

  it('binds to one of region or thing', () => {
    const base = { name: ' 门口 ', streamUrl: ' rtsp://a ', regionId: 4, thingId: 9 };
    expect(toVideoInput({ ...base, bindTo: 'region' })).toEqual({
      name: '门口',
      streamUrl: 'rtsp://a',
      regionId: 4,
      thingId: null,
    });
    expect(toVideoInput({ ...base, bindTo: 'thing' })).toEqual({
      name: '门口',
      streamUrl: 'rtsp://a',
      regionId: null,
      thingId: 9,
    });
    expect(toVideoInput({ ...base, bindTo: 'none' })).toEqual({
      name: '门口',
      streamUrl: 'rtsp://a',
      regionId: null,
      thingId: null,
    });
  });

  it('sends the playback fields of the chosen protocol and recording only', () => {
    const base = {
      name: 'Dock',
      bindTo: 'none' as const,
      playUrl: ' http://gw/x.m3u8 ',
      recordingUrl: ' http://nvr/a?s={start} ',
    };
    expect(
      toVideoInput({
        ...base,
        streamUrl: 'http://gw:8889/dock/whep',
        protocol: 'webrtc',
        recordingKind: 'template',
      }),
    ).toMatchObject({
      protocol: 'webrtc',
      playUrl: null,
      recordingKind: 'template',
      recordingUrl: 'http://nvr/a?s={start}',
    });
    expect(
      toVideoInput({ ...base, streamUrl: 'rtsp://cam/1', protocol: 'rtsp', recordingKind: 'none' }),
    ).toMatchObject({
      protocol: 'rtsp',
      playUrl: 'http://gw/x.m3u8',
      recordingKind: 'none',
      recordingUrl: null,
    });
  });

  it('refuses an RTSP address for HLS and a template without {start}, naming why', async () => {
    const calls = mockApi({ 'GET /api/videos': () => page([]), 'GET /api/regions': () => [] });
    renderScreen(<VideoPage />, '/device_management/video');
    fireEvent.click(await screen.findByTestId('crud-create'));
    const dialog = (await screen.findByRole('dialog')) as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '门口' } });
    fireEvent.change(within(dialog).getByLabelText('视频流地址'), { target: { value: 'rtsp://cam/1' } });
    fireEvent.click(within(dialog).getByText('NVR 回放模板'));
    fireEvent.change(await within(dialog).findByLabelText('录像地址'), {
      target: { value: 'http://nvr/play' },
    });
    clickButton(dialog, '确定');
    expect(await within(dialog).findByText('HLS 与 WebRTC 的地址须以 http:// 或 https:// 开头')).toBeTruthy();
    expect(await within(dialog).findByText('回放模板须含 {start} 占位符')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(false));
  });
});
