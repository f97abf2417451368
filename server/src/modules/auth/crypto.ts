import { createDecipheriv, hkdfSync } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

const LOGIN_KEY_INFO = 'kilowatch-login-key';
const IV_BYTES = 16;
const BLOCK_BYTES = 16;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The AES-256 key the console encrypts login passwords with: public by design (anyone may
 * fetch it), derived one-way from the server secret so it is stable per install.
 */
export const deriveLoginKey = (secret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), LOGIN_KEY_INFO, 32));

// Buffer.from(…, 'base64') skips junk silently; a typo must not turn into a different password.
const decodeBase64 = (text: string): Buffer | undefined =>
  STRICT_BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;

const decodeUtf8 = (bytes: Buffer): string | undefined => {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
};

/** base64 of the UTF-8 name → the trimmed name (spec §5); undefined when not valid base64/UTF-8. */
export function decodeUsername(encoded: string): string | undefined {
  const bytes = decodeBase64(encoded);
  return bytes && decodeUtf8(bytes)?.trim();
}

/** base64(iv[16] ‖ AES-256-CBC/PKCS#7 ciphertext) → the password; undefined when it does not decrypt. */
export function decryptPassword(encoded: string, key: Buffer): string | undefined {
  const bytes = decodeBase64(encoded);
  if (!bytes || bytes.length < IV_BYTES + BLOCK_BYTES || (bytes.length - IV_BYTES) % BLOCK_BYTES !== 0) {
    return undefined;
  }
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, bytes.subarray(0, IV_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES)), decipher.final()]);
    return decodeUtf8(plain);
  } catch {
    return undefined;
  }
}

/** argon2id (the library's default) with its default, OWASP-recommended cost. */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** False for a wrong password and for a hash it cannot read. */
export const verifyPassword = (passwordHash: string, password: string): Promise<boolean> =>
  verify(passwordHash, password).catch(() => false);
