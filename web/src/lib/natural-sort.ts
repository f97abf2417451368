import { naturalCompare } from '@kilowatch/contract';

/**
 * Lists of devices (and anything named with numbers) in the order people count: 1#, 2#, … 10#.
 * The comparator is the contract's, so the console and the server order alike.
 */
export { naturalCompare };

/** A copy of `list` ordered by `name` (then as given). */
export const sortByName = <T extends { name: string }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => naturalCompare(a.name, b.name));
