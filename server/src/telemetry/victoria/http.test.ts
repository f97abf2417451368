import { describe, expect, it } from 'vitest';
import { endpoints, iso, selector } from './http.ts';

describe('VictoriaMetrics endpoints', () => {
  it('a single node serves import, export, deletes and the flush at its root', () => {
    expect(endpoints('http://127.0.0.1:8428/')).toEqual({
      insert: 'http://127.0.0.1:8428',
      select: 'http://127.0.0.1:8428',
      remove: 'http://127.0.0.1:8428',
      flush: 'http://127.0.0.1:8428/internal/force_flush',
    });
  });

  it("a cluster: vminsert and vmselect with the tenant; deletes on vmselect's /delete/<tenant>/; no flush", () => {
    expect(
      endpoints('http://vminsert:8480/insert/42/prometheus', 'http://vmselect:8481/select/42:7/prometheus/'),
    ).toEqual({
      insert: 'http://vminsert:8480/insert/42/prometheus',
      select: 'http://vmselect:8481/select/42:7/prometheus',
      remove: 'http://vmselect:8481/delete/42:7/prometheus',
      flush: null,
    });
  });

  it('times go as RFC 3339 with milliseconds; label values are escaped in selectors', () => {
    expect(iso(1709856000123)).toBe('2024-03-08T00:00:00.123Z');
    expect(selector({ __name__: 'kilowatch', thing: '7', metric: 'a"b\\c' })).toBe(
      '{__name__="kilowatch",thing="7",metric="a\\"b\\\\c"}',
    );
  });
});
