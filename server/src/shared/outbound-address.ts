import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '../errors.ts';

/**
 * Where the server may connect on a user's behalf (alarm webhooks). A user who may only edit alarm
 * rules must not make the server reach its own loopback, the cloud's metadata service or the
 * plant's network: internal addresses are refused unless an admin lists them in the
 * `webhookAllowedHosts` system setting. The check runs on the address a name RESOLVES to, inside
 * the connection's own lookup, so a name that resolves elsewhere at send time than at save time
 * (DNS rebinding) is caught too.
 */

/** Loopback, link-local, private, shared, unspecified, multicast and reserved ranges. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible form (::a.b.c.d).
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv6');
}

const family = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/**
 * Whether `ip` is internal. IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged by their
 * IPv4 address (BlockList matches them against the IPv4 ranges).
 */
export const isInternalAddress = (ip: string): boolean => INTERNAL.check(ip, family(ip));

/** The hosts and networks an admin allowed although internal. */
export interface AllowList {
  /** Host names, lower case, matched as typed in a URL. */
  hosts: ReadonlySet<string>;
  nets: BlockList;
}

export const EMPTY_ALLOW_LIST: AllowList = { hosts: new Set(), nets: new BlockList() };

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * The `webhookAllowedHosts` setting: host names, addresses and CIDR networks separated by commas,
 * spaces or lines, e.g. `scada.plant.local, 10.20.0.0/16, fd00::5`.
 * @throws AppError 400 naming the first entry that is none of these.
 */
export function parseAllowList(text: string): AllowList {
  const hosts = new Set<string>();
  const nets = new BlockList();
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const [address = '', bits, ...more] = entry.split('/');
    const kind = isIP(address);
    const prefix = bits === undefined ? (kind === 6 ? 128 : 32) : Number(bits);
    if (kind !== 0 && more.length === 0 && (bits === undefined || /^\d{1,3}$/.test(bits))) {
      if (prefix <= (kind === 6 ? 128 : 32)) {
        nets.addSubnet(address, prefix, family(address));
        continue;
      }
    } else if (bits === undefined && HOST_NAME.test(entry.toLowerCase())) {
      hosts.add(entry.toLowerCase());
      continue;
    }
    throw new AppError(
      'BAD_REQUEST',
      400,
      { entry: entry.slice(0, 80) },
      { message: 'sysconfig.allowedHosts' },
    );
  }
  return { hosts, nets };
}

/** Whether `ip` may be connected to for a URL naming `host`. */
export function addressAllowed(ip: string, host: string, allow: AllowList): boolean {
  return (
    !isInternalAddress(ip) ||
    allow.hosts.has(host.toLowerCase().replace(/\.$/, '')) ||
    allow.nets.check(ip, family(ip))
  );
}

/** Refused because the address is internal and not allowed: says the host, never the address. */
export class InternalAddressRefused extends Error {
  constructor(readonly host: string) {
    super(`${host} is an internal address not on the allowed hosts`);
    this.name = 'InternalAddressRefused';
  }
}

/** A URL's host as the connection uses it: IPv6 without brackets, lower case. */
const urlHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Checks what a URL names before anything resolves: an address typed in the URL (which no lookup
 * sees) and `localhost`. Names are checked again on each connection by `guardedLookup`.
 * @throws InternalAddressRefused
 */
export function checkUrlHost(url: URL, allow: AllowList): void {
  const host = urlHost(url);
  if (isIP(host) !== 0) {
    if (!addressAllowed(host, host, allow)) throw new InternalAddressRefused(host);
  } else {
    const name = host.replace(/\.$/, '');
    if ((name === 'localhost' || name.endsWith('.localhost')) && !allow.hosts.has(name)) {
      throw new InternalAddressRefused(host);
    }
  }
}

/**
 * A `lookup` for net/http connections that resolves as usual and refuses the connection when any
 * address of the answer is internal and not allowed, so what is checked is what is connected to.
 */
export function guardedLookup(allow: AllowList): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', undefined);
        return;
      }
      if (addresses.some((a) => !addressAllowed(a.address, hostname, allow))) {
        callback(new InternalAddressRefused(hostname), '', undefined);
        return;
      }
      if (options.all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        return;
      }
      const first = addresses[0];
      if (!first) {
        callback(
          Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
          '',
          undefined,
        );
        return;
      }
      callback(null, first.address, first.family);
    });
  };
}
