import type { MapImageType } from '@kilowatch/contract';

/** What the bytes of an upload are, read from their signature (never from the name or header). */
export type Sniffed =
  | { kind: 'image'; type: MapImageType; width: number; height: number }
  /** A png or jpeg whose size could not be read (cut short, or no frame header). */
  | { kind: 'unreadable'; type: MapImageType }
  | { kind: 'svg' }
  | { kind: 'other' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);

/** PNG: the first chunk is IHDR, width and height big-endian at bytes 16 and 20. */
function png(bytes: Uint8Array): Sniffed {
  if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR')
    return { kind: 'unreadable', type: 'image/png' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { kind: 'image', type: 'image/png', width: view.getUint32(16), height: view.getUint32(20) };
}

/** Start-of-frame markers (baseline, progressive, lossless…): not DHT (C4), JPG (C8) or DAC (CC). */
const isSof = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walk the segments to the first start-of-frame; height then width, big-endian. */
function jpeg(bytes: Uint8Array): Sniffed {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1] as number;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (isSof(marker)) {
      if (at + 9 > bytes.length) break;
      return {
        kind: 'image',
        type: 'image/jpeg',
        height: view.getUint16(at + 5),
        width: view.getUint16(at + 7),
      };
    }
    if (marker === 0xda || length < 2) break;
    at += 2 + length;
  }
  return { kind: 'unreadable', type: 'image/jpeg' };
}

/**
 * The type and pixel size of an uploaded layout image.
 * @example sniffImage(pngBytes) // { kind: 'image', type: 'image/png', width: 1920, height: 1080 }
 */
export function sniffImage(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, PNG_SIGNATURE)) return png(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes);
  // An SVG is text: say so rather than "not an image", the user may not know it is refused.
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 1024)).toLowerCase();
  if (head.includes('<svg') || (head.trimStart().startsWith('<?xml') && head.includes('svg')))
    return { kind: 'svg' };
  return { kind: 'other' };
}
