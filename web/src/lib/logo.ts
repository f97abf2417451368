import type { LogoConfig } from '@kilowatch/contract';

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
