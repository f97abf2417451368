import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { topicMatches, watchPacketSizes } from './mqtt-wire.ts';

/** The bytes of a packet of `type` whose fixed header declares `length` (body left out). */
const header = (type: number, length: number) => {
  const bytes = [type];
  let rest = length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
};
const packet = (length: number) => Buffer.concat([header(0x30, length), Buffer.alloc(length, 0x61)]);

const watch = (max: number) => {
  const socket = Object.assign(new EventEmitter(), { destroyed: false, destroy: () => {} });
  socket.destroy = () => {
    socket.destroyed = true;
  };
  const oversize: number[] = [];
  watchPacketSizes(socket as unknown as Socket, max, (declared) => oversize.push(declared));
  const send = (bytes: Buffer, chunk = bytes.length) => {
    for (let i = 0; i < bytes.length; i += chunk) socket.emit('data', bytes.subarray(i, i + chunk));
  };
  return { socket, oversize, send };
};

describe('watchPacketSizes', () => {
  it('follows packets across any chunking and lets those within the limit through', () => {
    const stream = Buffer.concat([
      Buffer.from([0xc0, 0x00]),
      packet(200),
      packet(0),
      packet(16_000),
      packet(3),
    ]);
    for (const chunk of [1, 2, 3, 7, 1000, stream.length]) {
      const { socket, oversize, send } = watch(16_004);
      send(stream, chunk);
      expect({ chunk, oversize, destroyed: socket.destroyed }).toEqual({
        chunk,
        oversize: [],
        destroyed: false,
      });
    }
  });

  it('closes the connection from the header of a packet over the limit, counting header bytes', () => {
    for (const chunk of [1, 2, 64 * 1024]) {
      const { socket, oversize, send } = watch(16_004);
      send(Buffer.concat([packet(10), header(0x30, 29 * 2 ** 20), Buffer.alloc(64 * 1024)]), chunk);
      expect(oversize).toEqual([1 + 4 + 29 * 2 ** 20]);
      expect(socket.destroyed).toBe(true);
    }
    const exact = watch(16_004);
    exact.send(header(0x30, 16_001)); // 1 + 2 + 16,001 bytes: the limit
    expect(exact.oversize).toEqual([]);
    exact.send(Buffer.concat([Buffer.alloc(16_001), header(0x30, 16_002)])); // one over
    expect(exact.oversize).toEqual([16_005]);
  });

  it('closes a connection whose remaining length runs over four bytes, without calling it oversize', () => {
    const { socket, oversize, send } = watch(1024);
    send(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]));
    expect(socket.destroyed).toBe(true);
    expect(oversize).toEqual([]);
  });
});

describe('topicMatches', () => {
  it.each([
    ['v1/devices/me/#', 'v1/devices/me/errors', true],
    ['v1/devices/me/#', 'v1/devices/me', true],
    ['v1/devices/me/+', 'v1/devices/me/errors', true],
    ['v1/devices/me/errors', 'v1/devices/me/errors', true],
    ['v1/devices/me/+', 'v1/devices/me/rpc/request', false],
    ['v1/devices/me/attributes', 'v1/devices/me/errors', false],
    ['v1/devices/me/errors/+', 'v1/devices/me/errors', false],
  ])('%s matches %s: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });
});
