import { naturalCompare } from '@kilowatch/contract';

/**
 * A copy of `list` ordered by `name` (then as given), in the order people count: 1#, 2#, … 10#.
 * The comparator is the contract's, so the console and the server order alike.
 */
export const sortByName = <T extends { name: string }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => naturalCompare(a.name, b.name));
