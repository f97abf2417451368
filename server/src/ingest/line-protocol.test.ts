import { describe, expect, it } from 'vitest';
import { type LineError, type Precision, readLineProtocol } from './line-protocol.ts';

interface Line {
  line: number;
  measurement: string;
  tags: Record<string, string>;
  fields: [string, number | boolean | string][];
  ts: number | undefined;
}

/** Every line read into plain objects (copied: the reader reuses its record). */
function collect(body: string, precision: Precision, tags: boolean) {
  const lines: Line[] = [];
  const errors: LineError[] = [];
  readLineProtocol(body, precision, {
    tags,
    line(l) {
      const pairs: Record<string, string> = {};
      for (let t = 0; t < l.tags.length; t += 2) pairs[l.tags[t] as string] = l.tags[t + 1] as string;
      const fields: [string, number | boolean | string][] = [];
      for (let f = 0; f < l.count; f++)
        fields.push([l.keys[f] as string, l.others[f] ?? (l.numbers[f] as number)]);
      lines.push({ line: l.line, measurement: l.measurement, tags: pairs, fields, ts: l.ts });
    },
    error(line, message) {
      errors.push({ line, message });
    },
  });
  return { lines, errors };
}

/** The body read with tags, after checking that reading it without them gives the same lines and errors. */
function parseLineProtocol(body: string, precision: Precision = 'ns') {
  const read = collect(body, precision, true);
  const untagged = collect(body, precision, false);
  expect(untagged.errors).toEqual(read.errors);
  expect(untagged.lines).toEqual(read.lines.map((l) => ({ ...l, tags: {} })));
  return read;
}

describe('line protocol parser', () => {
  it('parses what Telegraf sends: tags, several fields, ns timestamps, many lines', () => {
    const body = [
      'modbus,host=gw01,name=meter1,slave_id=1,type=holding_register P=12.5,EP=10234.125 1732262400000000000',
      'mem,host=gw01 available=8123456i,used_percent=42.5,ok=true 1732262401123456789',
      '',
    ].join('\n');
    const { lines, errors } = parseLineProtocol(body);
    expect(errors).toEqual([]);
    expect(lines).toEqual([
      {
        line: 1,
        measurement: 'modbus',
        tags: { host: 'gw01', name: 'meter1', slave_id: '1', type: 'holding_register' },
        fields: [
          ['P', 12.5],
          ['EP', 10234.125],
        ],
        ts: 1732262400000,
      },
      {
        line: 2,
        measurement: 'mem',
        tags: { host: 'gw01' },
        fields: [
          ['available', 8123456],
          ['used_percent', 42.5],
          ['ok', true],
        ],
        ts: 1732262401123,
      },
    ]);
  });

  it('unescapes measurement, tag and field names, and quoted strings', () => {
    const { lines, errors } = parseLineProtocol(
      String.raw`my\ meas\,ure,tag\ key=tag\,val\=ue f\=ield\ 1="say \"hi\" \\ ok, x=1",n=-1.5e3 1700000000`,
      's',
    );
    expect(errors).toEqual([]);
    expect(lines[0]).toEqual({
      line: 1,
      measurement: 'my meas,ure',
      tags: { 'tag key': 'tag,val=ue' },
      fields: [
        ['f=ield 1', 'say "hi" \\ ok, x=1'],
        ['n', -1500],
      ],
      ts: 1700000000000,
    });
  });

  it('reads integers, unsigned, floats and every boolean spelling', () => {
    const { lines } = parseLineProtocol(
      'm a=1i,b=42u,c=-7i,d=1,e=.5,f=1E2,t1=t,t2=T,t3=true,t4=True,t5=TRUE,f1=f,f2=F,f3=false,f4=False,f5=FALSE',
    );
    expect(Object.fromEntries(lines[0]?.fields ?? [])).toEqual({
      a: 1,
      b: 42,
      c: -7,
      d: 1,
      e: 0.5,
      f: 100,
      t1: true,
      t2: true,
      t3: true,
      t4: true,
      t5: true,
      f1: false,
      f2: false,
      f3: false,
      f4: false,
      f5: false,
    });
    expect(lines[0]?.ts).toBeUndefined();
  });

  it('converts each precision to ms', () => {
    const at = (ts: string, p: 'ns' | 'us' | 'ms' | 's') => parseLineProtocol(`m v=1 ${ts}`, p).lines[0]?.ts;
    expect(at('1700000000123456789', 'ns')).toBe(1700000000123);
    expect(at('1700000000123456', 'us')).toBe(1700000000123);
    expect(at('1700000000123', 'ms')).toBe(1700000000123);
    expect(at('1700000000', 's')).toBe(1700000000000);
  });

  it('converts timestamps of every length and sign to ms as BigInt division would (cut toward zero)', () => {
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const precisions = ['ns', 'us', 'ms', 's', 'm', 'h'] as const;
    const toMs = {
      ns: [1n, 1_000_000n],
      us: [1n, 1_000n],
      ms: [1n, 1n],
      s: [1000n, 1n],
      m: [60_000n, 1n],
      h: [3_600_000n, 1n],
    };
    for (let k = 0; k < 3000; k++) {
      const precision = precisions[k % precisions.length] as (typeof precisions)[number];
      let digits = '';
      const length = 1 + (next() % 19);
      for (let d = 0; d < length; d++) digits += String(next() % 10);
      const raw = `${next() % 4 === 0 ? '-' : ''}${digits}`;
      const [mul, div] = toMs[precision] as [bigint, bigint];
      const want = Number((BigInt(raw) * mul) / div);
      const { lines, errors } = parseLineProtocol(`m v=1 ${raw}`, precision);
      if (!Number.isSafeInteger(want)) {
        expect(errors, raw).toHaveLength(1);
        continue;
      }
      expect(lines[0]?.ts, `${raw} ${precision}`).toBe(want);
      expect(Object.is(lines[0]?.ts, -0), raw).toBe(false);
    }
  });

  it('reads back random lines written with every escape, tag, field type and blank', () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const name = () => {
      let out = '';
      for (let k = 1 + next(6); k > 0; k--) out += 'ab_9 ,='[next(8)] ?? 'x';
      return out;
    };
    const escaped = (text: string, chars: string) =>
      text.replace(new RegExp(`[${chars}]`, 'g'), (c) => `\\${c}`);
    const values = [
      (): [string, number | boolean | string] => {
        const v = (next(2_000_001) - 1_000_000) / 64;
        return [String(v), v];
      },
      (): [string, number | boolean | string] => {
        const v = next(100_000) - 50_000;
        return [`${v}i`, v];
      },
      (): [string, number | boolean | string] => {
        const v = next(100_000);
        return [`${v}u`, v];
      },
      (): [string, number | boolean | string] => [
        ['t', 'TRUE', 'false', 'F'][next(4)] as string,
        next(2) === 0,
      ],
      (): [string, number | boolean | string] => {
        const v = name().replace(/_/g, '"').replace(/9/g, '\\');
        return [`"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`, v];
      },
    ];
    for (let round = 0; round < 200; round++) {
      const want: {
        measurement: string;
        tags: Record<string, string>;
        fields: [string, unknown][];
        ts: number | undefined;
      }[] = [];
      const text: string[] = [];
      for (let l = next(5) + 1; l > 0; l--) {
        const measurement = name().replace(/^[ ,=]+/, 'm');
        const tags: Record<string, string> = {};
        let line = escaped(measurement, ', ');
        for (let t = next(3); t > 0; t--) {
          const key = `k${t}${name()}`;
          const value = name();
          tags[key] = value;
          line += `,${escaped(key, ',= ')}=${escaped(value, ',= ')}`;
        }
        const fields: [string, unknown][] = [];
        const parts: string[] = [];
        for (let f = next(4) + 1; f > 0; f--) {
          const key = `f${f}${name()}`;
          const [written, value] = (values[next(values.length)] as () => [string, unknown])();
          const bool = written === 't' || written === 'TRUE';
          fields.push([key, typeof value === 'boolean' ? bool : value]);
          parts.push(`${escaped(key, ',= ')}=${written}`);
        }
        line += ` ${parts.join(',')}`;
        const ts = next(3) === 0 ? undefined : next(2 ** 30) * 1000;
        if (ts !== undefined) line += ` ${ts}`;
        want.push({ measurement, tags, fields, ts });
        text.push(`${next(4) === 0 ? ' \t' : ''}${line}${next(4) === 0 ? '\r' : ''}`);
        if (next(5) === 0) text.push(next(2) === 0 ? '' : '# a comment');
      }
      const { lines, errors } = parseLineProtocol(text.join('\n'), 'ms');
      expect(errors, text.join('\n')).toEqual([]);
      expect(
        lines.map(({ measurement, tags, fields, ts }) => ({ measurement, tags, fields, ts })),
        text.join('\n'),
      ).toEqual(want);
    }
  });

  it('reads decimals as Number() does, and names repeated from line to line as written', () => {
    let seed = 5;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const written: string[] = [];
    for (let k = 0; k < 5000; k++) {
      let digits = '';
      for (let d = 1 + next(20); d > 0; d--) digits += String(next(10));
      const dot = next(digits.length + 2);
      const number = dot > digits.length ? digits : `${digits.slice(0, dot)}.${digits.slice(dot)}`;
      written.push(`${['', '-', '+'][next(3)]}${number}`);
    }
    // Names of one length that differ in one character, so a name kept from the last line is not
    // taken for the next.
    const body = written.map((v, k) => `m${k % 3} k${k % 2}=${v},${k % 5 ? 'ab' : 'ac'}=1`).join('\n');
    const { lines, errors } = parseLineProtocol(body, 'ms');
    expect(errors).toEqual([]);
    written.forEach((v, k) => {
      const line = lines[k];
      expect(line?.measurement).toBe(`m${k % 3}`);
      expect(line?.fields, v).toEqual([
        [`k${k % 2}`, Number(v)],
        [k % 5 ? 'ab' : 'ac', 1],
      ]);
      expect(Object.is(line?.fields[0]?.[1], Number(v)), v).toBe(true);
    });
  });

  it('skips blank lines and comments, tolerates CRLF and trailing spaces, numbers lines', () => {
    const { lines, errors } = parseLineProtocol('# header\r\n\r\n  m v=1 \r\n# m v=2\nm v=3 5000000\n');
    expect(errors).toEqual([]);
    expect(lines.map((l) => [l.line, l.fields[0]?.[1], l.ts])).toEqual([
      [3, 1, undefined],
      [5, 3, 5],
    ]);
  });

  it('reports each bad line with its number and keeps the good ones', () => {
    const { lines, errors } = parseLineProtocol(
      [
        'm v=1',
        'm',
        'm v=',
        'm v="open',
        'm,t v=1',
        'm v=abc',
        'm v=1 12x',
        'm v=1 1 extra',
        ',t=1 v=1',
        'm v=2',
      ].join('\n'),
    );
    expect(lines.map((l) => l.line)).toEqual([1, 10]);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(errors[0]?.message).toBe('missing fields');
    expect(errors[3]?.message).toBe('invalid tag "t"');
    expect(errors[4]?.message).toContain('invalid value "abc"');
  });
});
