import type { Group, GroupInput, KeywordQuery } from '@kilowatch/contract';
import { MAX_PAGE_SIZE } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import { http } from '../../../lib/http.ts';
import { groupKeys } from './keys.ts';

export const getGroups = (query: Static<typeof KeywordQuery>, silent = false) =>
  http.get<PageOf<Group>>('/api/groups', { ...query }, { silent });

export const createGroup = (input: GroupInput) => http.post<Group>('/api/groups', input);

export const updateGroup = (id: number, input: GroupInput) => http.put<Group>(`/api/groups/${id}`, input);

export const deleteGroup = (id: number) => http.delete<void>(`/api/groups/${id}`);

export const groupOptionsQuery = () => ({
  queryKey: groupKeys.options(),
  queryFn: () => getGroups({ page: 1, pageSize: MAX_PAGE_SIZE }, true).then((p) => p.list),
});

/** Every group, for pickers and for naming a user's groups. */
export const useGroupOptions = () => useQuery(groupOptionsQuery());
