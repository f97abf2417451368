import type { Presence } from '@kilowatch/contract';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Query-key factories of the device feature. Lists, selects and drawers all sit under these
 * roots, so a mutation invalidates through the same factory that built the key.
 */
export const categoryKeys = {
  all: ['thing', 'categories'] as const,
  options: () => [...categoryKeys.all, 'options'] as const,
  abilities: (categoryId: number) => [...categoryKeys.all, categoryId, 'abilities'] as const,
};

export interface ModelFilters {
  categoryId?: number;
}

export const modelKeys = {
  all: ['thing', 'models'] as const,
  list: (filters: ModelFilters) => [...modelKeys.all, 'list', filters] as const,
  options: () => [...modelKeys.all, 'options'] as const,
  abilities: (modelId: number) => [...modelKeys.all, modelId, 'abilities'] as const,
};

export interface ThingFilters {
  categoryId?: number;
  modelId?: number;
  presence?: Presence;
}

export const thingKeys = {
  all: ['thing', 'things'] as const,
  lists: () => [...thingKeys.all, 'list'] as const,
  list: (filters: ThingFilters) => [...thingKeys.lists(), filters] as const,
  search: (name: string) => [...thingKeys.all, 'search', name] as const,
  abilities: (thingId: number) => [...thingKeys.all, thingId, 'abilities'] as const,
  token: (thingId: number) => [...thingKeys.all, thingId, 'token'] as const,
  /** Latest values of a thing, polled by the token dialog's first-message check. */
  latest: (thingId: number) => [...thingKeys.all, thingId, 'latest'] as const,
  connection: () => ['telemetry', 'connection'] as const,
};

export const unitKeys = {
  all: ['units', 'all'] as const,
};

export const videoKeys = {
  all: ['videos'] as const,
  regions: ['regions', 'tree'] as const,
};

/** Everything under /api/thing: categories count models and abilities, models count things. */
export const thingRootKey = ['thing'] as const;

/** Runs `fn`, then refreshes every cache under `keys` (for mutations passed to CrudPage). */
export const thenInvalidate =
  <A extends unknown[], R>(
    queryClient: QueryClient,
    keys: readonly (readonly unknown[])[],
    fn: (...a: A) => Promise<R>,
  ) =>
  async (...args: A): Promise<R> => {
    const result = await fn(...args);
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    return result;
  };
