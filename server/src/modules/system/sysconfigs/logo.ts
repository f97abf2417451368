import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoConfig } from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';

/** What the console shows when the setting is missing or unreadable. */
export const DEFAULT_LOGO: LogoConfig = { img: '', show: true };

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/i;

/** Decoded size of base64 text without decoding it. */
const decodedSize = (base64: string): number =>
  Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

const invalid = (message: 'logo.json' | 'logo.image' | 'logo.tooLarge', params = {}) =>
  new AppError('BAD_REQUEST', 400, params, { message });

/**
 * The systemSetting value checked and read (spec §3: JSON text { img, show }). img is empty, an
 * http(s) address or a base64 data URL of a LOGO_TYPES image of at most LOGO_MAX_BYTES.
 * @throws AppError 400 naming what is wrong.
 */
export function parseLogo(value: string): LogoConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalid('logo.json');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('logo.json');
  const { img, show, ...rest } = parsed as Record<string, unknown>;
  if (typeof img !== 'string' || typeof show !== 'boolean' || Object.keys(rest).length)
    throw invalid('logo.json');
  if (img === '' || HTTP_URL.test(img)) return { img, show };
  const match = DATA_URL.exec(img);
  const type = match?.[1]?.toLowerCase();
  if (!match || !type || !(LOGO_TYPES as readonly string[]).includes(type)) {
    throw invalid('logo.image', { types: LOGO_TYPES.join(', ') });
  }
  const size = decodedSize(match[2] ?? '');
  if (size > LOGO_MAX_BYTES) {
    throw invalid('logo.tooLarge', { size: Math.ceil(size / 1024), max: LOGO_MAX_BYTES / 1024 });
  }
  return { img, show };
}

/** The stored value as the console reads it; the default when it is missing or unreadable. */
export function readLogo(value: string | undefined): LogoConfig {
  if (value === undefined) return DEFAULT_LOGO;
  try {
    return parseLogo(value);
  } catch {
    return DEFAULT_LOGO;
  }
}
