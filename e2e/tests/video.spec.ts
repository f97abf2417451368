import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './accounts.ts';
import { apiLogin, post } from './api.ts';
import { expectPath, finalScreenshot, login, uniqueSuffix } from './helpers.ts';

// Issue 13, video monitoring: a real HLS stream made by Debian's ffmpeg (H.264 in MPEG-TS, which
// Chromium plays through Media Source Extensions), served from this spec with CORS, played on the
// video wall; then opened at a wall-clock time and seeked there by its EXT-X-PROGRAM-DATE-TIME.
const FFMPEG = '/usr/bin/ffmpeg';
const suffix = uniqueSuffix();
const SECONDS = 12;

let dir: string;
let server: Server;
let base: string;
let firstProgramDateTime: number;

test.beforeAll(async () => {
  test.skip(!existsSync(FFMPEG), 'ffmpeg is not installed (apt-get install ffmpeg)');
  dir = mkdtempSync(join(tmpdir(), 'kilowatch-hls-'));
  execFileSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', 'testsrc=size=320x240:rate=10', '-t', String(SECONDS)],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '20'],
    ...['-hls_time', '2', '-hls_list_size', '0', '-hls_playlist_type', 'event'],
    ...['-hls_flags', 'program_date_time', '-hls_segment_filename', join(dir, 'seg%d.ts')],
    join(dir, 'cam.m3u8'),
  ]);
  const playlist = readFileSync(join(dir, 'cam.m3u8'), 'utf8');
  const stamp = playlist.match(/#EXT-X-PROGRAM-DATE-TIME:(\S+)/)?.[1];
  firstProgramDateTime = Date.parse(stamp ?? '');
  expect(Number.isNaN(firstProgramDateTime), playlist).toBe(false);
  const types: Record<string, string> = { '.m3u8': 'application/vnd.apple.mpegurl', '.ts': 'video/mp2t' };
  // The stream sits on another origin than the console, as a camera or gateway does: CORS needed.
  server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/+/, '');
    const file = join(dir, name);
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (name.includes('..') || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The <video> of a tile: time, size and whether it plays. */
const videoOf = (page: Page, cameraId: number) =>
  page.getByTestId(`camera-tile-${cameraId}`).getByTestId('camera-video');

const mediaState = (page: Page, cameraId: number) =>
  videoOf(page, cameraId).evaluate((v: HTMLVideoElement) => ({
    currentTime: v.currentTime,
    videoWidth: v.videoWidth,
    paused: v.paused,
  }));

test('plays a camera on the wall and opens its recording at a given time', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const headers = await apiLogin(request);
  const region = await post<{ id: number }>(request, headers, '/api/regions', { name: `E2E视频-${suffix}` });
  const [thing] = (await (await request.get('/api/thing/things?page=1&pageSize=1', { headers })).json()).data
    .list as { id: number; name: string }[];
  if (!thing) throw new Error('the demo plant has no device');
  const camera = await post<{ id: number }>(request, headers, '/api/videos', {
    name: `E2E摄像头-${suffix}`,
    streamUrl: `${base}/cam.m3u8`,
    protocol: 'hls',
    regionId: region.id,
    recordingKind: 'hls',
    recordingUrl: `${base}/cam.m3u8`,
  });
  const broken = await post<{ id: number }>(request, headers, '/api/videos', {
    name: `E2E断线-${suffix}`,
    streamUrl: `${base}/missing.m3u8`,
    regionId: region.id,
  });
  const bound = await post<{ id: number }>(request, headers, '/api/videos', {
    name: `E2E设备摄像头-${suffix}`,
    streamUrl: `${base}/cam.m3u8`,
    thingId: thing.id,
    recordingKind: 'hls',
    recordingUrl: `${base}/cam.m3u8`,
  });

  await page.goto('/#/login');
  await login(page, ADMIN);
  await expectPath(page, '/home');
  await page.goto('/#/video');
  // Clicking the region fills the grid with its two cameras: one plays, one says why it cannot.
  await page.getByTestId('camera-tree').getByText(`E2E视频-${suffix}`, { exact: true }).click();
  await expect(page.getByTestId(`camera-tile-${camera.id}`)).toHaveAttribute('data-state', 'playing', {
    timeout: 30_000,
  });
  const first = await mediaState(page, camera.id);
  await expect
    .poll(async () => (await mediaState(page, camera.id)).currentTime)
    .toBeGreaterThan(first.currentTime);
  expect((await mediaState(page, camera.id)).videoWidth).toBe(320);
  const failed = page.getByTestId(`camera-tile-${broken.id}`);
  await expect(failed).toHaveAttribute('data-state', 'error');
  await expect(failed.getByTestId('camera-error')).toContainText('视频流地址返回 HTTP 404');
  await finalScreenshot(page, testInfo, 'video-wall');

  // The layout and the cameras stay for this user after a reload.
  await page.getByTestId('video-layout').getByText('9 画面').click();
  await page.reload();
  await expect(page.getByTestId('video-grid').locator('[data-testid^="empty-tile-"]')).toHaveCount(7);
  await expect(page.getByTestId(`camera-tile-${camera.id}`)).toBeVisible();

  // From a device (as the alarm detail links): its own camera, at the moment 5 s into the recording.
  const at = new Date(firstProgramDateTime + 5_000).toISOString();
  await page.goto(`/#/video?thing=${thing.id}&at=${encodeURIComponent(at)}`);
  const tile = page.getByTestId(`camera-tile-${bound.id}`);
  await expect(tile).toContainText('录像');
  await expect(tile).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  const seeked = await mediaState(page, bound.id);
  expect(seeked.currentTime).toBeGreaterThanOrEqual(5);
  expect(seeked.currentTime).toBeLessThan(SECONDS);
  expect(seeked.videoWidth).toBe(320);
  await finalScreenshot(page, testInfo, 'video-recording');

  // A moment after the recording ends says so instead of playing something else.
  await page.goto(
    `/#/video?thing=${thing.id}&at=${encodeURIComponent(new Date(firstProgramDateTime + 60_000).toISOString())}`,
  );
  await expect(page.getByTestId(`camera-tile-${bound.id}`).getByTestId('camera-error')).toContainText(
    '录像到',
  );
});
