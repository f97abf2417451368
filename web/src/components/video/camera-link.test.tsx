import type { Camera } from '@kilowatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { featureMessagesReady } from '../../lib/i18n.ts';
import { mockApi, renderScreen } from '../../testing/render-with-api.tsx';
import { CameraLink, cameraHref } from './CameraLink.tsx';

const camera = (id: number, recording: Camera['recording']): Camera => ({
  id,
  name: `cam${id}`,
  regionId: null,
  regionName: null,
  thingId: 7,
  thingName: '1#变压器',
  play: { protocol: 'hls', url: 'http://gw/a.m3u8' },
  recording,
  match: 'thing',
});

beforeEach(() => featureMessagesReady());
afterEach(() => vi.unstubAllGlobals());

describe('CameraLink', () => {
  it("opens the device's cameras at the alarm time, counting those with recordings", async () => {
    const calls = mockApi((call) =>
      call.path === '/api/video/cameras'
        ? { body: [camera(1, { kind: 'hls', url: 'http://nvr/a.m3u8' }), camera(2, null)] }
        : undefined,
    );
    renderScreen(<CameraLink thingId={7} at="2026-11-24T03:00:00.000Z" />);
    expect(await screen.findByText('告警时刻录像（1）')).toBeTruthy();
    expect(screen.getByTestId('camera-link').getAttribute('href')).toBe(
      '/video?thing=7&at=2026-11-24T03%3A00%3A00.000Z',
    );
    expect(calls[0]?.query.get('thingId')).toBe('7');
  });

  it('says cameras without a time, and shows nothing for a device without one', async () => {
    mockApi((call) => (call.path === '/api/video/cameras' ? { body: [camera(1, null)] } : undefined));
    const view = renderScreen(<CameraLink thingId={7} />);
    expect(await screen.findByText('摄像头（1）')).toBeTruthy();
    view.unmount();
    const calls = mockApi((call) => (call.path === '/api/video/cameras' ? { body: [] } : undefined));
    renderScreen(<CameraLink thingId={8} />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByTestId('camera-link')).toBeNull();
    expect(cameraHref(8)).toBe('/video?thing=8');
  });
});
