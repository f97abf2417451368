import {
  type ExploreState,
  type ExploreView,
  type ExploreViewCreate,
  type ExploreViewPatch,
  MAX_EXPLORE_VIEWS,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import * as repo from './repository.ts';

export interface ExploreDeps {
  db: Kysely<DB>;
  now: () => number;
}

const notFound = (id: number) => new AppError('NOT_FOUND', 404, { id }, { message: 'explore.notFound' });
const blankName = () => new AppError('VALIDATION', 400, {}, { message: 'explore.nameBlank' });
const nameTaken = (name: string) => new AppError('CONFLICT', 409, { name }, { message: 'explore.nameTaken' });

/** The schema bounds sizes and types; what it cannot say is that a range runs forwards. */
function checked(state: ExploreState): ExploreState {
  if ('start' in state.range && state.range.start >= state.range.end)
    throw new AppError('UNPROCESSABLE', 422, {}, { message: 'explore.badRange' });
  return state;
}

/**
 * Saved Explore views (docs/explore.md): each user's own. Every call names its caller, and a view
 * of someone else answers 404 like one that never existed, so ids tell nothing about others' views.
 */
export function createExploreService(deps: ExploreDeps) {
  const { db, now } = deps;
  const stamp = () => new Date(now()).toISOString();

  async function get(ownerId: number, id: number): Promise<ExploreView> {
    const view = await repo.viewById(db, ownerId, id);
    if (!view) throw notFound(id);
    return view;
  }

  const named = async <T>(name: string | undefined, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (name !== undefined && isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  };

  return {
    list: (ownerId: number): Promise<ExploreView[]> => repo.listViews(db, ownerId),

    async create(ownerId: number, input: ExploreViewCreate): Promise<ExploreView> {
      const name = input.name.trim();
      const state = checked(input.state);
      if (!name) throw blankName();
      const id = await named(name, () =>
        db.transaction().execute(async (trx) => {
          if ((await repo.countViews(trx, ownerId)) >= MAX_EXPLORE_VIEWS)
            throw new AppError(
              'UNPROCESSABLE',
              422,
              { max: MAX_EXPLORE_VIEWS },
              { message: 'explore.tooMany' },
            );
          return repo.insertView(trx, ownerId, name, state, stamp());
        }),
      );
      return get(ownerId, id);
    },

    async patch(ownerId: number, id: number, input: ExploreViewPatch): Promise<ExploreView> {
      const name = input.name?.trim();
      if (name === '') throw blankName();
      const state = input.state && checked(input.state);
      const found = await named(name, () => repo.updateView(db, ownerId, id, { name, state }, stamp()));
      if (!found) throw notFound(id);
      return get(ownerId, id);
    },

    async remove(ownerId: number, id: number): Promise<void> {
      if (!(await repo.deleteView(db, ownerId, id))) throw notFound(id);
    },
  };
}

export type ExploreService = ReturnType<typeof createExploreService>;
