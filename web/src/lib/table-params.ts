import { DEFAULT_PAGE_SIZE } from '@kilowatch/contract';
import { useSearchPatch } from './search-patch.ts';

export interface TableParams {
  page: number;
  pageSize: number;
  name: string;
}

const positive = (value: string | null, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Paging and the name search kept in the address, so a reload or a shared link keeps them. */
export function useTableParams(): [TableParams, (next: Partial<TableParams>) => void] {
  const [search, patch] = useSearchPatch();
  const params: TableParams = {
    page: positive(search.get('page'), 1),
    pageSize: positive(search.get('pageSize'), DEFAULT_PAGE_SIZE),
    name: search.get('name') ?? '',
  };
  return [params, patch];
}
