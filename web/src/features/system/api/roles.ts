import type { KeywordQuery, Role, RoleInput } from '@kilowatch/contract';
import { MAX_PAGE_SIZE } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import { http } from '../../../lib/http.ts';
import { roleKeys } from './keys.ts';

export const getRoles = (query: Static<typeof KeywordQuery>, silent = false) =>
  http.get<PageOf<Role>>('/api/roles', { ...query }, { silent });

export const createRole = (input: RoleInput) => http.post<Role>('/api/roles', input);

export const updateRole = (id: number, input: RoleInput) => http.put<Role>(`/api/roles/${id}`, input);

export const deleteRole = (id: number) => http.delete<void>(`/api/roles/${id}`);

export const roleOptionsQuery = () => ({
  queryKey: roleKeys.options(),
  queryFn: () => getRoles({ page: 1, pageSize: MAX_PAGE_SIZE }, true).then((p) => p.list),
});

/** Every role, for pickers and for naming a user's roles. */
export const useRoleOptions = () => useQuery(roleOptionsQuery());
