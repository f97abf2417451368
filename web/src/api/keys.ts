import type { Presence, ResourceType } from '@kilowatch/contract';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The one query-key factory of the console. Every key starts with the server resource it caches
 * (`things`, `regions`, `metric-configs`, `telemetry`, …), never with the screen that asked, so one
 * answer has one cache entry wherever it shows, and a mutation invalidates the resource's root:
 * a category created on the devices screen refreshes the category lists of monitoring, home and
 * regions at once.
 */

export interface ModelFilters {
  categoryId?: number;
}

export interface ThingFilters {
  categoryId?: number;
  modelId?: number;
  presence?: Presence;
}

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

export interface TreeOptions {
  /** Things as leaves under their regions (monitoring); the bare tree otherwise. */
  withThings?: boolean;
  categoryId?: number | null;
}

/** A chart resource: a region (optionally narrowed to a category) or a thing. */
export interface ResourceRef {
  resourceType: ResourceType;
  resourceId: number;
  categoryId?: number | null;
}

/** Everything under /api/thing: categories count models and abilities, models count things. */
const things = ['things'] as const;
const categories = [...things, 'categories'] as const;
const models = [...things, 'models'] as const;
const thingList = [...things, 'things'] as const;
const regions = ['regions'] as const;
const telemetry = ['telemetry'] as const;

export const keys = {
  things: {
    all: things,
    categories: {
      all: categories,
      /** Every category (one page of MAX_PAGE_SIZE), for selects and filters on every screen. */
      options: () => [...categories, 'options'] as const,
      abilities: (categoryId: number) => [...categories, categoryId, 'abilities'] as const,
    },
    models: {
      all: models,
      list: (filters: ModelFilters) => [...models, 'list', filters] as const,
      options: () => [...models, 'options'] as const,
      abilities: (modelId: number) => [...models, modelId, 'abilities'] as const,
    },
    things: {
      all: thingList,
      lists: () => [...thingList, 'list'] as const,
      list: (filters: ThingFilters) => [...thingList, 'list', filters] as const,
      search: (name: string) => [...thingList, 'search', name] as const,
      /** The region screen's bind picker. */
      picker: (params: ThingPickerParams) => [...thingList, 'picker', params] as const,
      abilities: (thingId: number) => [...thingList, thingId, 'abilities'] as const,
      token: (thingId: number) => [...thingList, thingId, 'token'] as const,
    },
  },
  units: { all: ['units'] as const },
  videos: {
    all: ['videos'] as const,
    /** GET /api/video/cameras: every camera, or a device's own and nearby ones. */
    cameras: (thingId: number | null) => ['videos', 'cameras', thingId] as const,
  },
  regions: {
    all: regions,
    tree: ({ withThings = false, categoryId = null }: TreeOptions = {}) =>
      [...regions, 'tree', { withThings, categoryId }] as const,
    bindings: {
      all: [...regions, 'bindings'] as const,
      of: (regionId: number, filters: BindingFilters) => [...regions, 'bindings', regionId, filters] as const,
    },
    /** Devices bound to no region (the monitoring tree's "unassigned" group). */
    unbound: (categoryId: number | null) => [...regions, 'unbound', categoryId] as const,
  },
  metricConfigs: {
    all: ['metric-configs'] as const,
    of: (r: ResourceRef) => ['metric-configs', r.resourceType, r.resourceId, r.categoryId ?? null] as const,
    none: () => ['metric-configs', 'none'] as const,
  },
  telemetry: {
    all: telemetry,
    /** A metric query; `seq` makes every tick of a real-time view its own entry. */
    data: (query: object, seq: string | null = null) => [...telemetry, 'data', query, seq] as const,
    /** The placeholder entry of a chart with nothing to ask yet. */
    idle: (...what: (string | number)[]) => [...telemetry, 'data', 'idle', ...what] as const,
    /** Latest values of a resource (GET /api/query/realtime) at tick `seq`. */
    realtime: (r: ResourceRef, seq: string | null) =>
      [...telemetry, 'realtime', r.resourceType, r.resourceId, r.categoryId ?? null, seq] as const,
    /** A thing's latest values, polled by the token dialog's first-message check. */
    firstMessage: (thingId: number) => [...telemetry, 'realtime', 'first-message', thingId] as const,
    /** Broker and HTTP ingest addresses. */
    connection: () => [...telemetry, 'connection'] as const,
  },
  boards: {
    all: ['boards'] as const,
    /** Cabinets of a region (with descendants), of one tick or poll. */
    cabinets: (regionId: number, categoryId: number | null, seq: string | null = null) =>
      ['boards', 'cabinets', regionId, categoryId, seq] as const,
  },
  users: { all: ['users'] as const },
  groups: { all: ['groups'] as const, options: () => ['groups', 'options'] as const },
  roles: { all: ['roles'] as const, options: () => ['roles', 'options'] as const },
  resources: { all: ['resources'] as const, list: () => ['resources', 'list'] as const },
  sysconfigs: {
    all: ['sysconfigs'] as const,
    byIdentifier: (identifier: string) => ['sysconfigs', 'identifier', identifier] as const,
    erp: () => ['sysconfigs', 'erp'] as const,
  },
  /** The demo plant's background history (/api/demo/history). */
  demoHistory: () => ['demo-history'] as const,
  /** The public logo (/api/sysconfigs/logo): its own root, so sysconfig table refreshes leave it. */
  logo: { all: ['logo'] as const },
  /** Everything under /api/alarm: an action or a rule change refreshes the lists and the bell. */
  alarms: {
    all: ['alarms'] as const,
    rules: (query: object) => ['alarms', 'rules', query] as const,
    templates: (query: object) => ['alarms', 'templates', query] as const,
    monitors: (query: object) => ['alarms', 'monitors', query] as const,
    history: (query: object) => ['alarms', 'history', 'list', query] as const,
    alarm: (id: number) => ['alarms', 'history', id] as const,
    /** The navbar bell's poll (page 1, 5 ringing alarms). */
    bell: () => ['alarms', 'history', 'bell'] as const,
    /** The health report (EEMUA 191) of one range. */
    health: (query: object) => ['alarms', 'health', query] as const,
    /** The alarms charts draw: things and range (`useAlarmSpans`). */
    spans: (thingIds: readonly number[], start: number, end: number) =>
      ['alarms', 'spans', thingIds.join(','), start, end] as const,
    /** One device's event log over a range. */
    thingEvents: (thingId: number, start: number, end: number) =>
      ['alarms', 'thingEvents', thingId, start, end] as const,
    /** Alarms out of service (a rule on a thing, or a monitor). */
    outOfService: (query: object) => ['alarms', 'outOfService', query] as const,
    maintenance: (query: object) => ['alarms', 'maintenance', query] as const,
    notifySmtp: () => ['alarms', 'notify', 'smtp'] as const,
    notifyRoutes: () => ['alarms', 'notify', 'routes'] as const,
    notifyOutbox: (query: object) => ['alarms', 'notify', 'outbox', query] as const,
  },
  /** Everything under /api/reports: the tree and each report's components. */
  reports: {
    all: ['reports'] as const,
    tree: () => ['reports', 'tree'] as const,
    components: (reportId: number) => ['reports', reportId, 'components'] as const,
    schedules: (reportId: number) => ['reports', reportId, 'schedules'] as const,
    scheduleRuns: (scheduleId: number) => ['reports', 'schedule-runs', scheduleId] as const,
  },
  /** Tariffs and what is priced with them: a tariff write refreshes the bills and costs by band. */
  tariffs: {
    all: ['tariffs'] as const,
    list: () => ['tariffs', 'list'] as const,
    plant: () => ['tariffs', 'plant'] as const,
    regions: () => ['tariffs', 'regions'] as const,
    bill: (query: object) => ['tariffs', 'bill', query] as const,
    tpfc: (query: object) => ['tariffs', 'tpfc', query] as const,
  },
  /** /api/statistics: ranges by query, the statistics config. */
  statistics: {
    all: ['statistics'] as const,
    range: (query: object) => ['statistics', 'range', query] as const,
    config: () => ['statistics', 'config'] as const,
  },
  /** /api/filter-groups and /api/filters: a write refreshes the groups and the statistics using them. */
  filterGroups: { all: ['filter-groups'] as const },
  /** /api/board/pages: a write refreshes the pages (order, shares, counts) and their components. */
  board: {
    all: ['board'] as const,
    pages: () => ['board', 'pages'] as const,
    components: (pageId: number) => ['board', 'components', pageId] as const,
  },
  /** /api/enpi: a definition or output write refreshes the list, the outputs and every report. */
  enpi: {
    all: ['enpi'] as const,
    list: () => ['enpi', 'list'] as const,
    outputs: (id: number) => ['enpi', id, 'outputs'] as const,
    report: (id: number, query: object) => ['enpi', id, 'report', query] as const,
    abilities: (resourceType: string, resourceId: number) =>
      ['enpi', 'abilities', resourceType, resourceId] as const,
  },
  /** /api/dashboard: the overview's totals, the situation map and its image bytes by version. */
  dashboard: {
    all: ['dashboard'] as const,
    overview: () => ['dashboard', 'overview'] as const,
    map: () => ['dashboard', 'map'] as const,
    image: (version: string) => ['dashboard', 'image', version] as const,
  },
  /** /api/diagrams: the list and each diagram; a write refreshes both. */
  diagrams: {
    all: ['diagrams'] as const,
    list: () => ['diagrams', 'list'] as const,
    one: (id: number) => ['diagrams', id] as const,
  },
  /** /api/explore/views: the caller's saved views; a write refreshes the list. */
  explore: {
    all: ['explore'] as const,
    views: () => ['explore', 'views'] as const,
  },
};

/** Runs `fn`, then refreshes every cache under `roots` (for mutations passed to CrudPage). */
export const thenInvalidate =
  <A extends unknown[], R>(
    queryClient: QueryClient,
    roots: readonly (readonly unknown[])[],
    fn: (...a: A) => Promise<R>,
  ) =>
  async (...args: A): Promise<R> => {
    const result = await fn(...args);
    await Promise.all(roots.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    return result;
  };
