import { cbc } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';

const toBase64 = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
};
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** base64 of the UTF-8 text (the login username, spec §7). */
export const encodeUsername = (username: string) => toBase64(new TextEncoder().encode(username));

/**
 * Spec §7: the password travels AES-encrypted with a random IV, then base64: base64(iv ‖ ciphertext),
 * AES-256-CBC with PKCS#7 padding, under the install's public login key. This keeps the password out
 * of casual logs and proxies; HTTPS is what protects it (docs/auth.md). A JS cipher rather than
 * WebCrypto, because WebCrypto is missing on plain-HTTP plant addresses such as http://10.0.0.5:8080.
 */
export function encryptPassword(password: string, keyBase64: string): string {
  const iv = randomBytes(16);
  const ciphertext = cbc(fromBase64(keyBase64), iv).encrypt(new TextEncoder().encode(password));
  const out = new Uint8Array(iv.length + ciphertext.length);
  out.set(iv);
  out.set(ciphertext, iv.length);
  return toBase64(out);
}
