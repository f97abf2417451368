import { describe, expect, it } from 'vitest';
import { decodeJson, telemetryItems } from './payload.ts';

describe('telemetry payload shapes (ThingsBoard v1/devices/me/telemetry)', () => {
  it('takes a flat key-value object, stamped on arrival', () => {
    expect(telemetryItems({ P: 13.5, Ia: 5.2 })).toEqual([
      {
        index: 0,
        ts: undefined,
        values: [
          ['P', 13.5],
          ['Ia', 5.2],
        ],
      },
    ]);
  });

  it('takes an array of flat objects, each its own message', () => {
    expect(telemetryItems([{ P: 1 }, { Ia: 2 }])).toEqual([
      { index: 0, ts: undefined, values: [['P', 1]] },
      { index: 1, ts: undefined, values: [['Ia', 2]] },
    ]);
  });

  it('takes {ts, values} and an array of them, and {values} alone', () => {
    expect(telemetryItems({ ts: 1451649600512, values: { P: 1 } })).toEqual([
      { index: 0, ts: 1451649600512, values: [['P', 1]] },
    ]);
    expect(telemetryItems([{ ts: 1, values: { P: 1 } }, { values: { P: 2 } }, { Q: 3 }])).toEqual([
      { index: 0, ts: 1, values: [['P', 1]] },
      { index: 1, ts: undefined, values: [['P', 2]] },
      { index: 2, ts: undefined, values: [['Q', 3]] },
    ]);
  });

  it('names the keys a timed message carries beside ts and values instead of dropping them', () => {
    expect(telemetryItems({ ts: 5, values: { P: 1 }, deviceName: 'x' })).toEqual([
      { index: 0, ts: 5, values: [['P', 1]], unexpected: ['deviceName'] },
    ]);
  });

  it('marks what is no message at all', () => {
    expect(telemetryItems('garbage')).toEqual([{ index: 0, ts: undefined, values: null }]);
    expect(telemetryItems(null)).toEqual([{ index: 0, ts: undefined, values: null }]);
    expect(telemetryItems([[{ P: 1 }], 7])).toEqual([
      { index: 0, ts: undefined, values: null },
      { index: 1, ts: undefined, values: null },
    ]);
    // ThingsBoard: an object with ts and values is a timed message, so values must be an object.
    expect(telemetryItems({ ts: 5, values: 3 })).toEqual([{ index: 0, ts: 5, values: null }]);
    expect(telemetryItems([])).toEqual([]);
  });

  it('keeps __proto__ as an ordinary key', () => {
    const decoded = decodeJson('{"__proto__":{"x":1},"P":2}');
    expect(decoded.ok).toBe(true);
    const items = telemetryItems(decoded.ok ? decoded.value : undefined);
    expect(items).toEqual([
      {
        index: 0,
        ts: undefined,
        values: [
          ['__proto__', { x: 1 }],
          ['P', 2],
        ],
      },
    ]);
    expect(({} as { x?: number }).x).toBeUndefined();
  });
});

describe('decodeJson', () => {
  it('parses text and buffers, and says why it cannot', () => {
    expect(decodeJson(Buffer.from('{"P":1}'))).toEqual({ ok: true, value: { P: 1 } });
    expect(decodeJson(' \n')).toEqual({ ok: false, error: 'empty' });
    expect(decodeJson(Buffer.from('\uFEFF{"P":1}'))).toEqual({ ok: true, value: { P: 1 } });
    expect(decodeJson(undefined)).toEqual({ ok: false, error: 'empty' });
    expect(decodeJson('{"P":')).toMatchObject({ ok: false, error: 'invalid', detail: expect.any(String) });
  });
});
