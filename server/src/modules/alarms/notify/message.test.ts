import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BACKOFF,
  nextAttemptAt,
  plantTime,
  renderMessage,
  routeTakes,
  signature,
} from './message.ts';

describe('notification messages', () => {
  it('backs off from 5 s doubling to 15 min, and gives up after the last attempt', () => {
    const waits = Array.from({ length: 11 }, (_, i) => nextAttemptAt(i + 1, 0, DEFAULT_BACKOFF));
    expect(waits).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 900_000, 900_000, 900_000,
    ]);
    expect(nextAttemptAt(DEFAULT_BACKOFF.maxAttempts, 0, DEFAULT_BACKOFF)).toBeNull();
  });

  it('routes an event only where severity and event are both listed, and the route is enabled', () => {
    const route = { enabled: true, severities: ['critical', 'major'], events: ['raise'] } as const;
    expect(routeTakes(route, 'major', 'raise')).toBe(true);
    expect(routeTakes(route, 'minor', 'raise')).toBe(false);
    expect(routeTakes(route, 'major', 'return')).toBe(false);
    expect(routeTakes({ ...route, enabled: false }, 'major', 'raise')).toBe(false);
  });

  it('signs the raw body with HMAC-SHA256', () => {
    expect(signature('k', '{"a":1}')).toBe(
      `sha256=${createHmac('sha256', 'k').update('{"a":1}').digest('hex')}`,
    );
  });

  it('writes times on the plant clock and the acknowledgement with who and why', () => {
    expect(plantTime(Date.parse('2026-11-22T16:30:05Z'), 'Asia/Shanghai')).toBe('2026-11-23 00:30:05');
    const m = renderMessage(
      'acknowledge',
      {
        id: 42,
        ruleName: '温度过高',
        thingName: '电机1',
        resourceType: 'thing',
        resourceName: '电机1',
        severity: 'critical',
        message: '电机1 温度 95',
        value: '95',
        alarmAt: Date.parse('2026-11-22T08:00:00Z'),
        returnedAt: null,
      },
      { username: 'walker', comment: '已停机检查', at: Date.parse('2026-11-22T08:05:00Z') },
      'Asia/Shanghai',
    );
    expect(m.subject).toBe('[紧急] 告警已确认：电机1 温度过高');
    expect(m.text.split('\n')).toEqual([
      '告警已确认：温度过高',
      '级别：紧急',
      '设备：电机1',
      '告警值：95',
      '告警信息：电机1 温度 95',
      '告警时间：2026-11-22 16:00:00',
      '确认人：walker',
      '确认时间：2026-11-22 16:05:00',
      '备注：已停机检查',
      '详情：/alarm_center/alarm_history?id=42',
    ]);
    expect(m.body.link).toBe('/alarm_center/alarm_history?id=42');
  });
});
