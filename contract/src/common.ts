import { type Static, type TSchema, Type } from 'typebox';

/** Every error body: a stable code and a message in the request's language. */
export const ErrorBody = Type.Object({
  code: Type.String(),
  message: Type.String(),
});

/** Successful responses wrap their payload as `{ data }`; the console unwraps it. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

/** Body of calls that only acknowledge, e.g. logout. */
export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;

/** Ids are 32-bit integers in both databases; a larger one is a 400, not a database error. */
export const MAX_ID = 2_147_483_647;
/** A row id in a path, query or body. */
export const RowId = Type.Integer({ minimum: 1, maximum: MAX_ID });
export const IdParams = Type.Object({ id: RowId });
/**
 * Positions (`sort`) are 32-bit integer columns too; the cap leaves room for the `max + 1` the
 * server computes when it appends a row.
 */
export const MAX_SORT = 1_000_000;
/** Times in ms since the epoch: up to 9999-12-31, the last instant an ISO-8601 date can name. */
export const MAX_EPOCH_MS = 253_402_300_799_999;

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
});

/** A page of rows: `total` counts every match, `list` holds this page's rows. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
  });

/** What `Page(item)` answers, as a type: the server's paged services and the console's tables use it. */
export interface PageResult<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION',
  'UNAUTHORIZED',
  'TOKEN_EXPIRED',
  'INVALID_CREDENTIALS',
  'NO_USER_LEVEL',
  'USER_DISABLED',
  'TOO_MANY_ATTEMPTS',
  'REFRESH_INVALID',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'UNPROCESSABLE',
  'INTERNAL',
  'TOO_MANY_STREAMS',
  'BUSY',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
