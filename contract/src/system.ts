import { type Static, Type } from 'typebox';

/** GET /api/health: liveness plus which metadata database this server uses. */
export const Health = Type.Object({
  status: Type.Literal('ok'),
  db: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  version: Type.String(),
});
export type Health = Static<typeof Health>;

/** Body of calls that only acknowledge, e.g. logout. */
export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;
