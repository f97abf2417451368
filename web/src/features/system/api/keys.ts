import type { TableParams } from '../../../components/crud/use-table-params.ts';

/**
 * Query keys of the system feature. CrudPage pages live under each `all` root
 * (`[...all, 'page', params]`), so any mutation invalidating a root refreshes tables and pickers.
 */
export const userKeys = {
  all: ['system', 'users'] as const,
};

export const groupKeys = {
  all: ['system', 'groups'] as const,
  options: () => [...groupKeys.all, 'options'] as const,
};

export const roleKeys = {
  all: ['system', 'roles'] as const,
  options: () => [...roleKeys.all, 'options'] as const,
};

export const resourceKeys = {
  all: ['system', 'resources'] as const,
  list: () => [...resourceKeys.all, 'list'] as const,
};

export const sysConfigKeys = {
  all: ['system', 'sysconfigs'] as const,
  page: (params: TableParams) => [...sysConfigKeys.all, 'page', params] as const,
  byIdentifier: (identifier: string) => [...sysConfigKeys.all, 'identifier', identifier] as const,
};

/** Public logo config; not under the sysconfig root so it survives table refreshes. */
export const logoKeys = {
  all: ['system', 'logo'] as const,
};
