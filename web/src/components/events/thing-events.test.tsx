import type { ThingEvent } from '@kilowatch/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { featureMessagesReady } from '../../lib/i18n.ts';
import { mockApi, renderScreen } from '../../testing/render-with-api.tsx';
import { ThingEventsButton } from './ThingEventsButton.tsx';

const at = Date.parse('2026-11-24T03:00:00.000Z');
const event = (change: Partial<ThingEvent>): ThingEvent => ({
  at,
  kind: 'raised',
  alarmId: 41,
  title: '排气温度高',
  severity: 'major',
  username: '',
  comment: '',
  ...change,
});

beforeEach(() => featureMessagesReady());
afterEach(() => vi.unstubAllGlobals());

// Issue 21: each device has an event log (alarms, acknowledgements, maintenance) from its pages.
describe("a device's event log", () => {
  it('lists the events of the last 7 days, an alarm’s linking to it', async () => {
    const calls = mockApi((call) =>
      call.path === '/api/alarm/things/7/events'
        ? {
            body: {
              truncated: false,
              list: [
                event({ kind: 'acknowledge', at: at + 60_000, username: 'admin', comment: '查看中' }),
                event({}),
                event({ kind: 'maintenanceStart', alarmId: null, title: '更换滤芯', severity: null }),
              ],
            },
          }
        : undefined,
    );
    renderScreen(<ThingEventsButton thingId={7} name="1#空压机" />);
    fireEvent.click(screen.getByTestId('thing-events'));
    const drawer = await screen.findByTestId('thing-events-drawer');
    const rows = await within(drawer).findAllByTestId('thing-event');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/确认排气温度高 · admin查看中$/),
      expect.stringMatching(/告警排气温度高$/),
      expect.stringMatching(/维护开始更换滤芯$/),
    ]);
    expect(within(rows[1]!).getByRole('link').getAttribute('href')).toBe('/alarm_center/alarm_history?id=41');
    const query = calls[0]!.query;
    expect(Number(query.get('end')) - Number(query.get('start'))).toBe(7 * 24 * 3_600_000);
  });
});
