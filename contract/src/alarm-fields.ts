import { Type } from 'typebox';
import { MAX_EPOCH_MS } from './common.ts';

// Fields the alarm contract files share; not re-exported from index.ts (the package's names stay
// those of the schemas).

/** An instant in epoch milliseconds. */
export const EpochMs = Type.Number({ minimum: 0, maximum: MAX_EPOCH_MS });

export const tags = ['alarms'];
