import { MAX_ID } from '@kilowatch/contract';

/**
 * `"1,2,3"` (or `["1,2", "3"]`, a repeated query parameter) → [1, 2, 3]; undefined when any part
 * is not a plain decimal id of the 32-bit columns: no spaces (a `+` in a query string is one),
 * signs or leading zeros, so `0x1`, `1e0` or `01` never address id 1.
 */
export function parseIdList(text: string | readonly string[]): number[] | undefined {
  const parts = (typeof text === 'string' ? [text] : text).flatMap((t) => t.split(','));
  if (parts.some((p) => !/^[1-9]\d{0,9}$/.test(p) || Number(p) > MAX_ID)) return undefined;
  return parts.map(Number);
}
