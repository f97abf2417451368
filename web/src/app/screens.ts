import type { ReactNode } from 'react';

/** A feature's screens, keyed by route name (contract/src/routes.ts `name`). */
export type ScreenMap = Record<string, () => ReactNode>;
