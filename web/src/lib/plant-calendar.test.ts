import type { Me } from '@kilowatch/contract';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPlantTime, fromPicker, plantCalendar, toPicker } from './plant-calendar.ts';
import { useSession } from './session.ts';

// A browser far from the plant: what the user reads and picks must still be the plant's time.
process.env.TZ = 'America/New_York';

const signIn = (timeZone: string) =>
  useSession.setState({
    user: {
      id: 1,
      username: 'u',
      name: 'u',
      avatar: '',
      introduction: '',
      roles: [],
      routes: [],
      userLevel: null,
      setting: {},
      timeZone,
    } satisfies Me,
  });

afterEach(() => useSession.setState({ user: null }));

describe('plant times in the console', () => {
  const at = Date.UTC(2026, 0, 1, 0, 30, 5);

  it('formats an instant, as ms or ISO, on the plant clock', () => {
    signIn('Asia/Shanghai');
    expect(formatPlantTime(at)).toBe('2026-01-01 08:30:05');
    expect(formatPlantTime(new Date(at).toISOString())).toBe('2026-01-01 08:30:05');
    expect(formatPlantTime(null)).toBe('');
    expect(formatPlantTime('not a time')).toBe('');
  });

  it('shows the plant wall clock in a picker and reads it back to the same instant', () => {
    signIn('Asia/Shanghai');
    const calendar = plantCalendar();
    const shown = toPicker(calendar, at);
    expect(shown.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-01-01 08:30:05');
    expect(fromPicker(calendar, shown)).toBe(at);
    // A time picked as 00:00 is the plant's midnight, not the browser's.
    expect(fromPicker(calendar, dayjs('2026-01-02T00:00:00'))).toBe(Date.UTC(2026, 0, 1, 16));
  });

  it('reads a picked time the clocks skip or repeat as the schedules do (Europe/Berlin)', () => {
    signIn('Europe/Berlin');
    const calendar = plantCalendar();
    // 02:30 does not exist on 29 March 2026: it is 03:30 CEST, not 01:30 CET.
    const skipped = fromPicker(calendar, dayjs('2026-03-29T02:30:00'));
    expect(new Date(skipped).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(calendar.format(skipped, 'HH:mm')).toBe('03:30');
    // 02:30 happens twice on 25 October 2026: the first, CEST.
    expect(new Date(fromPicker(calendar, dayjs('2026-10-25T02:30:00'))).toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });
});
