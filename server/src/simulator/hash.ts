// Deterministic randomness: hashes of (key, salt, index), no state.

/** A 32-bit integer finaliser (lowbias32): good avalanche, a few multiplications. */
const mix = (x: number): number => {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x21f0aaad);
  h ^= h >>> 15;
  h = Math.imul(h, 0x735a2d97);
  h ^= h >>> 15;
  return h >>> 0;
};

const TWO_32 = 4_294_967_296;

/** Uniform in [0, 1) from a key, a salt and an index (indices beyond 2³² wrap, harmlessly). */
export const uniform = (key: number, salt: number, index: number): number =>
  mix(mix(key ^ Math.imul(salt, 0x9e3779b1)) ^ (index | 0) ^ Math.floor(index / TWO_32)) / TWO_32;

/**
 * Centred noise in (−1, 1) with a triangular distribution (sum of two uniforms), from one hash:
 * small deviations are common, the extremes rare.
 */
export const noise = (key: number, salt: number, index: number): number => {
  const h = mix(mix(key ^ Math.imul(salt, 0x85ebca77)) ^ (index | 0));
  return ((h & 0xffff) + (h >>> 16)) / 65_536 - 1;
};

/** FNV-1a of a string, mixed: the key of a thing is the hash of its identifier and the seed. */
export const stringKey = (text: string, seed: number): number => {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix(h);
};

export const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

export const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
