import { SCHEDULE_RUN_RETENTION_DAYS, SCHEDULE_RUN_RETENTION_MAX_DAYS } from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';

/**
 * Checks a scheduleRunRetentionDays value on write: a whole number of days, 1 to the maximum.
 * @throws AppError 400 worded in the user's language.
 */
export function parseRetentionDays(value: string): number {
  const days = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || days < 1 || days > SCHEDULE_RUN_RETENTION_MAX_DAYS) {
    throw new AppError(
      'BAD_REQUEST',
      400,
      { max: SCHEDULE_RUN_RETENTION_MAX_DAYS },
      { message: 'sysconfig.retentionDays' },
    );
  }
  return days;
}

/** The stored value as the runner reads it; the default when missing (a bad one cannot be saved). */
export const readRetentionDays = (value: string | undefined): number =>
  value === undefined ? SCHEDULE_RUN_RETENTION_DAYS : parseRetentionDays(value);
