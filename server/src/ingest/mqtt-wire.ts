import type { Socket } from 'node:net';

/**
 * Watches the MQTT packets a connection sends and calls `onOversize` (once) as soon as a packet's
 * fixed header declares more than `maxBytes`: Aedes 1.x (mqtt-packet) buffers a whole packet before
 * it looks at it, so a 29 MB publish was read, parsed and JSON-decoded whole before it was refused.
 * Only the 2–5 header bytes of each packet are read here; the body bytes are counted, not copied.
 *
 * Attach after `broker.handle(socket)`: with Aedes' 'readable' listener in place, Node emits 'data'
 * for exactly the chunks Aedes reads, before its parser sees them, so destroying the socket here
 * leaves at most the current chunk to the parser.
 */
export function watchPacketSizes(
  socket: Socket,
  maxBytes: number,
  onOversize: (declared: number) => void,
): void {
  let state: 'type' | 'length' | 'body' = 'type';
  let length = 0;
  let lengthBytes = 0;
  let remaining = 0;
  const refuse = (declared?: number) => {
    socket.off('data', scan);
    if (declared !== undefined) onOversize(declared);
    socket.destroy();
  };
  const scan = (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      if (state === 'type') {
        i += 1;
        state = 'length';
        length = 0;
        lengthBytes = 0;
      } else if (state === 'length') {
        const byte = chunk[i] as number;
        i += 1;
        length += (byte & 0x7f) * 128 ** lengthBytes;
        lengthBytes += 1;
        if (byte & 0x80) {
          // A length longer than 4 bytes is malformed (MQTT §2.2.3): close as the parser would.
          if (lengthBytes === 4) return refuse();
          continue;
        }
        const total = 1 + lengthBytes + length;
        if (total > maxBytes) return refuse(total);
        remaining = length;
        state = remaining === 0 ? 'type' : 'body';
      } else {
        const skipped = Math.min(remaining, chunk.length - i);
        i += skipped;
        remaining -= skipped;
        if (remaining === 0) state = 'type';
      }
    }
  };
  socket.on('data', scan);
}

/**
 * CONNACK with reason code 0x84 (Unsupported Protocol Version) and a reason string, in MQTT 5's
 * encoding: the refusal an MQTT 5 client can read (MQTT 5 §3.1.2.2). Aedes 1.x answers a v5 CONNECT
 * with a 3.1.1 CONNACK (return code 1), which a v5 client reads as the undefined reason code 1.
 */
export function unsupportedVersionConnack(reason: string): Buffer {
  const text = Buffer.from(reason, 'utf8');
  const properties = Buffer.concat([Buffer.from([0x1f, text.length >> 8, text.length & 0xff]), text]);
  const body = Buffer.concat([Buffer.from([0x00, 0x84]), varint(properties.length), properties]);
  return Buffer.concat([Buffer.from([0x20]), varint(body.length), body]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

/** Whether an MQTT topic filter (`+`, `#` wildcards) matches a topic name. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}
