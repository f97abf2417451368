import type { Category, Thing } from '@kilowatch/contract';
import { MAX_PAGE_SIZE } from '@kilowatch/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import { http } from '../../../lib/http.ts';
import { regionKeys, type ThingPickerParams } from './keys.ts';

/** Things for the bind picker (the device feature owns their management). */
export const getThings = (params: ThingPickerParams) =>
  http.get<PageOf<Thing>>(
    '/api/thing/things',
    { ...params, name: params.name || undefined },
    { silent: true },
  );

export const getCategories = () =>
  http.get<PageOf<Category>>('/api/thing/categories', { pageSize: MAX_PAGE_SIZE }, { silent: true });

export const useThingPicker = (params: ThingPickerParams, enabled: boolean) =>
  useQuery({
    queryKey: regionKeys.things(params),
    queryFn: () => getThings(params),
    enabled,
    placeholderData: keepPreviousData,
  });

/** Device categories, for the category filters. */
export const useCategories = () =>
  useQuery({
    queryKey: regionKeys.categories(),
    queryFn: getCategories,
    select: (page) => page.list,
    staleTime: 60_000,
  });
