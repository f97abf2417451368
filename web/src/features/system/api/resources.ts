import type { Resource } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { resourceKeys } from './keys.ts';

/** The console routes that roles can grant (seeded by the server from contract/src/routes.ts). */
export const getResources = () => http.get<Resource[]>('/api/resources', undefined, { silent: true });

export const resourcesQuery = () => ({
  queryKey: resourceKeys.list(),
  queryFn: getResources,
  // They change only when the console's route table does.
  staleTime: 5 * 60_000,
});

export const useResources = () => useQuery(resourcesQuery());
