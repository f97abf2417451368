import type { SysConfig, SysConfigInput, SysConfigQuery } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import { http } from '../../../lib/http.ts';
import { sysConfigKeys } from './keys.ts';

export const getSysConfigs = (query: Static<typeof SysConfigQuery>, silent = false) =>
  http.get<PageOf<SysConfig>>('/api/sysconfigs', { ...query }, { silent });

export const createSysConfig = (input: SysConfigInput) => http.post<SysConfig>('/api/sysconfigs', input);

export const updateSysConfig = (id: number, input: SysConfigInput) =>
  http.put<SysConfig>(`/api/sysconfigs/${id}`, input);

export const deleteSysConfig = (id: number) => http.delete<void>(`/api/sysconfigs/${id}`);

/** The config with exactly this identifier, or null (the list filter may also match others). */
export const getSysConfigByIdentifier = async (identifier: string): Promise<SysConfig | null> => {
  const page = await getSysConfigs({ page: 1, pageSize: 100, identifier }, true);
  return page.list.find((c) => c.identifier === identifier) ?? null;
};

export const useSysConfigByIdentifier = (identifier: string) =>
  useQuery({
    queryKey: sysConfigKeys.byIdentifier(identifier),
    queryFn: () => getSysConfigByIdentifier(identifier),
  });
