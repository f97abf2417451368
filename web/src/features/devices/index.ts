import type { ScreenMap } from '../../app/screens.ts';

/** Screens of this feature by route name (contract/src/routes.ts). */
export const screens: ScreenMap = {};
