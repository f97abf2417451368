import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  addressAllowed,
  EMPTY_ALLOW_LIST,
  guardedLookup,
  InternalAddressRefused,
  isInternalAddress,
  parseAllowList,
} from './outbound-address.ts';

describe('isInternalAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
  ])('refuses %s', (ip) => {
    expect(isInternalAddress(ip)).toBe(true);
  });

  it.each(['93.184.216.34', '172.32.0.1', '192.169.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'lets %s through',
    (ip) => {
      expect(isInternalAddress(ip)).toBe(false);
    },
  );
});

describe('parseAllowList', () => {
  it('reads names, addresses and networks, and allows only those', () => {
    const allow = parseAllowList(' scada.plant.local,10.20.0.0/16\n fd00::5  127.0.0.1 ');
    expect(addressAllowed('10.20.9.9', 'x', allow)).toBe(true);
    expect(addressAllowed('10.21.0.1', 'x', allow)).toBe(false);
    expect(addressAllowed('fd00::5', 'x', allow)).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', 'x', allow)).toBe(true);
    expect(addressAllowed('192.168.1.1', 'SCADA.plant.local', allow)).toBe(true);
    expect(addressAllowed('192.168.1.1', 'other.plant.local', allow)).toBe(false);
    expect(parseAllowList('').hosts.size).toBe(0);
  });

  it.each(['10.0.0.0/33', '::/129', 'http://scada', 'a_b', '1.2.3.4/x', '1.2.3.4/8/8', 'host/8'])(
    'refuses %s',
    (entry) => {
      expect(() => parseAllowList(entry)).toThrow(
        expect.objectContaining({ status: 400, options: { message: 'sysconfig.allowedHosts' } }),
      );
    },
  );
});

describe('guardedLookup', () => {
  const resolve = (host: string, allow = EMPTY_ALLOW_LIST, all = false) =>
    new Promise<{ error: Error | null; address: string | LookupAddress[] }>((done) => {
      guardedLookup(allow)(host, { all }, (error, address) =>
        done({ error, address: address as string | LookupAddress[] }),
      );
    });

  it('refuses a name that resolves to loopback, in either answer shape', async () => {
    for (const all of [false, true]) {
      const { error } = await resolve('localhost', EMPTY_ALLOW_LIST, all);
      expect(error).toBeInstanceOf(InternalAddressRefused);
    }
  });

  it('resolves an allowed name as asked', async () => {
    const allow = parseAllowList('localhost');
    const one = await resolve('localhost', allow);
    expect(one.error).toBeNull();
    expect(isInternalAddress(one.address as string)).toBe(true);
    const all = await resolve('localhost', allow, true);
    expect(Array.isArray(all.address) && all.address.length).toBeGreaterThan(0);
  });
});
