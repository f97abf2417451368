import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoConfig } from '@kilowatch/contract';

export type LogoFileError = 'wrongType' | 'tooLarge';

/** KB shown in the size message. */
export const LOGO_MAX_KB = Math.round(LOGO_MAX_BYTES / 1024);

/**
 * Why a chosen file cannot be the logo, or null when it can.
 * @example checkLogoFile({ type: 'image/gif', size: 10 }) // 'wrongType'
 */
export function checkLogoFile(file: { type: string; size: number }): LogoFileError | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'wrongType';
  if (file.size > LOGO_MAX_BYTES) return 'tooLarge';
  return null;
}

/** Reads a file client-side as a `data:` URL (the logo is stored inline in the config value). */
export const readAsDataUrl = (file: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });

/** A logo config from untrusted JSON (the config value, the public call), or null when unusable. */
export function toLogoConfig(value: unknown): LogoConfig | null {
  if (typeof value === 'string') {
    try {
      return toLogoConfig(JSON.parse(value));
    } catch {
      return null;
    }
  }
  if (value === null || typeof value !== 'object') return null;
  const { img, show } = value as Record<string, unknown>;
  if (typeof img !== 'string' || typeof show !== 'boolean') return null;
  return { img, show };
}

/** The built-in logo shown while the configured image is empty. */
export const DEFAULT_LOGO_SRC = './favicon.svg';
