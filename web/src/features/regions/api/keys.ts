/** Query keys of the regions feature; mutations invalidate through these. */
export interface BindingFilters {
  categoryId?: number;
  successor?: boolean;
}

export interface ThingPickerParams {
  name: string;
  categoryId?: number;
  page: number;
  pageSize: number;
}

export const regionKeys = {
  all: ['regions'] as const,
  tree: () => [...regionKeys.all, 'tree'] as const,
  bindingsRoot: () => [...regionKeys.all, 'bindings'] as const,
  bindings: (regionId: number, filters: BindingFilters) =>
    [...regionKeys.bindingsRoot(), regionId, filters] as const,
  things: (params: ThingPickerParams) => [...regionKeys.all, 'thing-picker', params] as const,
  categories: () => [...regionKeys.all, 'categories'] as const,
};
