/**
 * Names as people count them: 1#, 2#, … 10#, not 1#, 10#, 11#, 2# (numeric collation, Chinese
 * and Latin alike). The one comparator of device names, for the server's lists and the console's.
 */
const collator = new Intl.Collator(['zh-Hans-CN', 'en'], { numeric: true, sensitivity: 'base' });

/** @example ['10#', '2#', '1#'].sort(naturalCompare) // ['1#', '2#', '10#'] */
export const naturalCompare = (a: string, b: string): number => collator.compare(a, b);
