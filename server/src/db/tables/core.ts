import type { Generated } from 'kysely';

// ---- accounts, things, categories, models and units ------------------------------------------------

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  name: string;
  avatar: string;
  introduction: string;
  /** 1 = admin, above 1 = editor, NULL = may not log in (spec §4). */
  user_level: number | null;
  disabled: number;
  /** JSON object text. */
  setting: string;
  created_at: string;
  updated_at: string;
}

export interface RefreshTokensTable {
  /** The token's `jti`. */
  id: string;
  user_id: number;
  /** Every token rotated from one login shares a family, so a replayed one can revoke them all. */
  family: string;
  expires_at: string;
  revoked_at: string | null;
  /** The jti of the token issued when this one was rotated. */
  replaced_by: string | null;
  created_at: string;
}

export interface CoreDB {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  thing_categories: ThingCategoriesTable;
  thing_category_abilities: ThingCategoryAbilitiesTable;
  thing_models: ThingModelsTable;
  thing_model_abilities: ThingModelAbilitiesTable;
  things: ThingsTable;
  thing_ability_removals: ThingAbilityRemovalsTable;
  units: UnitsTable;
  regions: RegionsTable;
  region_things: RegionThingsTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  resources: ResourcesTable;
  roles: RolesTable;
  role_resources: RoleResourcesTable;
  user_roles: UserRolesTable;
  sys_configs: SysConfigsTable;
  videos: VideosTable;
  login_failures: LoginFailuresTable;
  stream_tickets: StreamTicketsTable;
  server_secrets: ServerSecretsTable;
}

export interface ThingCategoriesTable {
  id: Generated<number>;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface ThingCategoryAbilitiesTable {
  id: Generated<number>;
  category_id: number;
  identifier: string;
  name: string;
  unit: string;
  /** number | boolean | enum | string */
  data_type: string;
  aggregator: string;
  /** 1 = cumulative counter, 0 = instantaneous value. */
  cumulative: number;
  /** JSON array text of { value, label }. */
  enum_options: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

export interface ThingModelsTable {
  id: Generated<number>;
  category_id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** A model's override of one category ability; NULL columns inherit the category's value. */
interface ThingModelAbilitiesTable {
  model_id: number;
  ability_id: number;
  name: string | null;
  unit: string | null;
  aggregator: string | null;
  cumulative: number | null;
  sort: number | null;
  updated_at: string;
}

interface ThingsTable {
  id: Generated<number>;
  identifier: string;
  name: string;
  description: string;
  model_id: number;
  /** JSON object text: { attributes: [{ identifier, name, value }] }. */
  setting: string;
  access_token: string;
  created_at: string;
  updated_at: string;
}

interface ThingAbilityRemovalsTable {
  thing_id: number;
  ability_id: number;
  created_at: string;
}

interface UnitsTable {
  id: Generated<number>;
  symbol: string;
  name: string;
  quantity: string;
  sort: number;
}

// ---- regions and system management (migration 0003) -----------------------------------------------

interface RegionsTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  description: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

interface RegionThingsTable {
  region_id: number;
  thing_id: number;
  created_at: string;
}

interface GroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface UserGroupsTable {
  user_id: number;
  group_id: number;
}

/** A console route (contract LAYOUT_ROUTES), upserted at every start. */
interface ResourcesTable {
  id: Generated<number>;
  path: string;
  name: string;
  title_key: string;
  parent_path: string | null;
  admin_only: number;
  sort: number;
}

interface RolesTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface RoleResourcesTable {
  role_id: number;
  resource_path: string;
}

interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SysConfigsTable {
  id: Generated<number>;
  identifier: string;
  name: string;
  /** JSON text for structured settings such as systemSetting. */
  value: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface VideosTable {
  id: Generated<number>;
  name: string;
  stream_url: string;
  region_id: number | null;
  thing_id: number | null;
  created_at: string;
  updated_at: string;
  /** Migration 0420: how the console plays it, the gateway's address, the recording. */
  protocol: Generated<string>;
  play_url: string | null;
  recording_kind: Generated<string>;
  recording_url: string | null;
}

// ---- metric configs (migration 0004) --------------------------------------------------------------

export interface CoreDB {
  metric_configs: MetricConfigsTable;
}

export interface MetricConfigsTable {
  id: Generated<number>;
  /** thing | region */
  resource_type: string;
  resource_id: number;
  /** 0 = no category. */
  category_id: number;
  metric_identifier: string;
  metric_name: string;
  name: string;
  enabled: number;
  unit: string;
  aggregator: string;
  function: string;
  color: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

interface LoginFailuresTable {
  /** `s|<source>` (every name from one client address) or `u|<source>|<lower-case username>`. */
  key: string;
  failures: number;
  last_failure_at: string;
  /** The failure before the last, so an attempt counted up front can be taken back on success. */
  previous_failure_at: string | null;
  /** When the count is forgotten: a fixed time after the last failure, per kind of key. */
  forget_at: string;
}

interface StreamTicketsTable {
  /** SHA-256 (hex) of the ticket: the ticket itself is only ever in the URL that redeems it. */
  ticket_hash: string;
  access_token: string;
  expires_at: string;
}

interface ServerSecretsTable {
  /** 'jwt' */
  name: string;
  value: string;
}
