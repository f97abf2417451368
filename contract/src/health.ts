import { type Static, Type } from 'typebox';
import { endpoint } from './endpoint.ts';

/** GET /api/health: liveness plus which metadata database this server uses. */
export const Health = Type.Object({
  status: Type.Literal('ok'),
  db: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  version: Type.String(),
});
export type Health = Static<typeof Health>;

// ---- endpoints ----------------------------------------------------------------------------------

export const health = endpoint({
  method: 'GET',
  path: '/api/health',
  response: Health,
  // No input to get wrong: it answers 200, or 5xx when the database does not.
  errors: ['5xx'],
  tags: ['system'],
  summary: 'Liveness and database check',
});
