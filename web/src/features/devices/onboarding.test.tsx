import type { DeviceConnection, DeviceStatus, EffectiveAbility, ThingListItem } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThingPage } from './components/ThingPage.tsx';
import { clickButton, mockApi, page, renderScreen } from './test-utils.tsx';

// Whole antd screens with a dialog and polling: slow on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const NOW = Date.now();
const thing = (id: number, name: string, presence: ThingListItem['presence'], lastSeen: number | null) => ({
  id,
  identifier: `M-${id}`,
  name,
  description: '',
  modelId: 3,
  modelName: 'A型',
  categoryId: 2,
  categoryName: '电表',
  setting: { attributes: [] },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  presence,
  lastSeen,
});
const M1 = thing(7, '1号电表', 'online', NOW - 30_000);
const M2 = thing(8, '2号电表', 'never', null);

const CONNECTION: DeviceConnection = {
  mqtt: {
    mode: 'broker',
    host: 'plant.local',
    port: 1884,
    protocol: 'mqtt',
    ownTopic: 'v1/devices/me/telemetry',
    thingTopic: 'kilowatch/things/{identifier}/telemetry',
  },
  http: {
    baseUrl: 'http://plant.local:8080',
    telemetryPath: '/api/telemetry',
    lineProtocolPath: '/api/v2/write',
    thingsboardPath: '/api/v1/{token}/telemetry',
    lineProtocolV1Path: '/write',
  },
};
const P: EffectiveAbility = {
  abilityId: 11,
  categoryId: 2,
  identifier: 'P',
  name: '有功功率',
  unit: 'kW',
  dataType: 'number',
  aggregator: 'avg',
  cumulative: false,
  enumOptions: [],
  sort: 0,
  overridden: false,
};
const status = (value: number | null, ts: number | null): DeviceStatus[] => [
  { operation: 'P', name: '有功功率', unit: 'kW', value, ts, thingId: 8 },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

const modalOf = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;

describe('device list presence', () => {
  it('shows presence and last seen, filters by presence from the address, and links to live data', async () => {
    const calls = mockApi({
      'GET /api/thing/things': (call) => page(call.query.get('presence') === 'never' ? [M2] : [M1, M2]),
      'GET /api/thing/categories': () => page([]),
      'GET /api/thing/models': () => page([]),
    });
    renderScreen(<ThingPage />, '/device_management/nodes');
    const row1 = (await screen.findByText('1号电表')).closest('tr') as HTMLElement;
    expect(within(row1).getByText('在线')).toBeTruthy();
    expect(row1.textContent).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const link = within(row1).getByRole('link', { name: /实时数据/ });
    expect(link.getAttribute('href')).toBe('/energy_monitor/realtime?resourceType=thing&resourceId=7');
    const row2 = screen.getByText('2号电表').closest('tr') as HTMLElement;
    expect(within(row2).getByText('从未上报')).toBeTruthy();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: '在线状态' }));
    fireEvent.click(await screen.findByTitle('从未上报'));
    await waitFor(() => expect(screen.queryByText('1号电表')).toBeNull());
    expect(
      calls
        .filter((c) => c.path === '/api/thing/things')
        .at(-1)!
        .query.get('presence'),
    ).toBe('never');
    expect(screen.getByTestId('location').textContent).toContain('presence=never');
  });
});

describe('token dialog', () => {
  it('shows where and how to connect, with the token in ready-to-copy snippets, then the first message', async () => {
    let latest = status(null, null);
    mockApi({
      'GET /api/thing/things': () => page([M2]),
      'GET /api/thing/categories': () => page([]),
      'GET /api/thing/models': () => page([]),
      'GET /api/thing/things/8/token': () => ({ thingId: 8, accessToken: 'tok-secret-8' }),
      'GET /api/thing/things/8/abilities': () => [P],
      'GET /api/telemetry/connection': () => CONNECTION,
      'GET /api/query/realtime': () => latest,
    });
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('2号电表');
    fireEvent.click(screen.getByRole('button', { name: /接入令牌/ }));
    const dialog = await modalOf('接入令牌：2号电表');

    expect((await within(dialog).findByTestId('connect-broker')).textContent).toBe('mqtt://plant.local:1884');
    expect(dialog.textContent).toContain('v1/devices/me/telemetry');
    expect(dialog.textContent).toContain('http://plant.local:8080/api/telemetry');
    const mqtt = within(dialog).getByTestId('snippet-mosquitto');
    // Masked on screen until the token is revealed.
    expect(mqtt.textContent).not.toContain('tok-secret-8');
    expect(mqtt.textContent).toContain(`-m '{"values":{"P":12.5}}'`);
    clickButton(dialog, '显示');
    await waitFor(() =>
      expect(within(dialog).getByTestId('snippet-mosquitto').textContent).toContain("-u 'tok-secret-8'"),
    );
    expect(within(dialog).getByTestId('snippet-mosquitto').textContent).toContain("-h 'plant.local' -p 1884");
    // ThingsBoard devices and InfluxDB 1.x clients each have their own tab, token filled in.
    fireEvent.click(within(dialog).getByRole('tab', { name: 'ThingsBoard 设备接口' }));
    expect((await within(dialog).findByTestId('snippet-thingsboard')).textContent).toContain(
      "'http://plant.local:8080/api/v1/tok-secret-8/telemetry'",
    );
    expect(dialog.textContent).toContain('只需把服务器地址改为本服务器');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'InfluxDB 1.x' }));
    const influx = await within(dialog).findByTestId('snippet-influx-v1');
    expect(influx.textContent).toContain("-u 'kilowatch:tok-secret-8'");
    expect(influx.textContent).toContain("--data-binary 'kilowatch P=12.5'");

    expect((await within(dialog).findByTestId('first-message')).textContent).toContain('等待第一条消息…');
    latest = status(12.5, NOW);
    await waitFor(
      () => expect(within(dialog).getByTestId('first-message').getAttribute('data-state')).toBe('received'),
      { timeout: 8000 },
    );
    expect(within(dialog).getByTestId('first-message').textContent).toContain('已收到 ✓');
    expect(within(dialog).getByTestId('first-message').textContent).toContain('P = 12.5 kW');
  });

  it('waits for a new message when the device has sent before, and says when MQTT is off', async () => {
    mockApi({
      'GET /api/thing/things': () => page([M1]),
      'GET /api/thing/categories': () => page([]),
      'GET /api/thing/models': () => page([]),
      'GET /api/thing/things/7/token': () => ({ thingId: 7, accessToken: 'tok-7' }),
      'GET /api/thing/things/7/abilities': () => [P],
      'GET /api/telemetry/connection': () => ({
        ...CONNECTION,
        mqtt: { ...CONNECTION.mqtt, mode: 'off', host: null, port: null, ownTopic: null },
      }),
      'GET /api/query/realtime': () => status(3, NOW - 60_000),
    });
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('1号电表');
    fireEvent.click(screen.getByRole('button', { name: /接入令牌/ }));
    const dialog = await modalOf('接入令牌：1号电表');
    expect(await within(dialog).findByText(/未启用内置 MQTT 服务器/)).toBeTruthy();
    expect(within(dialog).queryByTestId('snippet-mosquitto')).toBeNull();
    await waitFor(() =>
      expect(within(dialog).getByTestId('first-message').textContent).toContain('上一条消息'),
    );
    expect(within(dialog).getByTestId('first-message').getAttribute('data-state')).toBe('waiting');
  });
});
