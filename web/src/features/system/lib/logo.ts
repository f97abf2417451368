import { LOGO_MAX_BYTES, LOGO_TYPES } from '@kilowatch/contract';

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
