import { ErrorBody } from '@kilowatch/contract';

/** Error responses every route declares. */
export const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
