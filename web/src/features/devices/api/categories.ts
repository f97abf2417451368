import type { Category, CategoryInput } from '@kilowatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import type { TableParams } from '../../../components/crud/use-table-params.ts';
import { http } from '../../../lib/http.ts';
import { categoryKeys } from './keys.ts';

/** Largest page the server returns; selects list every row in one call. */
export const ALL_PAGE_SIZE = 1000;

export const getCategories = (params: TableParams, silent = false) =>
  http.get<PageOf<Category>>('/api/thing/categories', { ...params }, { silent });

export const createCategory = (input: CategoryInput) => http.post<Category>('/api/thing/categories', input);

export const updateCategory = (id: number, input: CategoryInput) =>
  http.put<Category>(`/api/thing/categories/${id}`, input);

export const deleteCategory = (id: number) => http.delete<void>(`/api/thing/categories/${id}`);

/** Every category, for selects and filters. */
export const categoryOptionsQuery = () =>
  queryOptions({
    queryKey: categoryKeys.options(),
    queryFn: () => getCategories({ page: 1, pageSize: ALL_PAGE_SIZE, name: '' }, true),
    select: (page) => page.list,
  });

export const useCategoryOptions = () => useQuery(categoryOptionsQuery());
