import { type Static, Type } from 'typebox';
import { PageQuery, RowId } from './common.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants.ts';

/**
 * System management (spec §2 admin routes, §3 system config and logo, §6): users, groups, roles,
 * resources (the console's routes, which roles grant), system settings and video labels.
 */

/** A row id: ids are 32-bit integer columns, so larger numbers are refused as bad input (400). */

const Name = Type.String({ minLength: 1, maxLength: 64 });
const Description = Type.String({ maxLength: 500 });
const Timestamp = Type.String({ description: 'ISO-8601 UTC' });
const PASSWORD_SOURCE = '^[A-Za-z0-9?~!,.#&@$%^*]{6,20}$';
const Password = Type.String({ pattern: PASSWORD_SOURCE, minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX });

export const KeywordQuery = Type.Object({
  ...PageQuery.properties,
  name: Type.Optional(Type.String({ maxLength: 64 })),
});

// ---- users --------------------------------------------------------------------------------------

export const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar: Type.String(),
  introduction: Type.String(),
  /** 1 admin, above 1 editor, null: cannot log in (spec §4). */
  userLevel: Type.Union([Type.Integer(), Type.Null()]),
  disabled: Type.Boolean(),
  roleIds: Type.Array(Type.Integer()),
  groupIds: Type.Array(Type.Integer()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type User = Static<typeof User>;

const UserFields = {
  name: Name,
  avatar: Type.Optional(Type.String({ maxLength: 2048 })),
  introduction: Type.Optional(Description),
  userLevel: Type.Union([Type.Integer({ minimum: 1, maximum: 9 }), Type.Null()]),
  disabled: Type.Optional(Type.Boolean()),
  roleIds: Type.Optional(Type.Array(RowId, { maxItems: 100 })),
  groupIds: Type.Optional(Type.Array(RowId, { maxItems: 100 })),
};

export const UserCreate = Type.Object({
  username: Type.String({ pattern: '^[A-Za-z0-9_.@-]{2,32}$' }),
  password: Password,
  ...UserFields,
});
export type UserCreate = Static<typeof UserCreate>;

export const UserUpdate = Type.Object(UserFields);
export type UserUpdate = Static<typeof UserUpdate>;

/** Admin sets a new password; the user's refresh tokens are revoked. */
export const PasswordReset = Type.Object({ password: Password });
export type PasswordReset = Static<typeof PasswordReset>;

// ---- groups -------------------------------------------------------------------------------------

export const Group = Type.Object({
  id: Type.Integer(),
  name: Name,
  description: Description,
  userCount: Type.Integer(),
  createdAt: Timestamp,
});
export type Group = Static<typeof Group>;
export const GroupInput = Type.Object({ name: Name, description: Type.Optional(Description) });
export type GroupInput = Static<typeof GroupInput>;

// ---- roles and resources ------------------------------------------------------------------------

/** A console route that roles can grant (seeded from contract/src/routes.ts). */
export const Resource = Type.Object({
  id: Type.Integer(),
  path: Type.String(),
  name: Type.String(),
  titleKey: Type.String(),
  parentPath: Type.Union([Type.String(), Type.Null()]),
  adminOnly: Type.Boolean(),
  sort: Type.Integer(),
});
export type Resource = Static<typeof Resource>;

export const Role = Type.Object({
  id: Type.Integer(),
  /** Role name carried in the session's `roles` (e.g. "energy-manager"). */
  code: Type.String(),
  name: Name,
  description: Description,
  /** Paths of the routes this role grants. */
  resourcePaths: Type.Array(Type.String()),
  userCount: Type.Integer(),
  createdAt: Timestamp,
});
export type Role = Static<typeof Role>;

export const RoleInput = Type.Object({
  code: Type.String({ pattern: '^[a-z][a-z0-9_-]{1,31}$' }),
  name: Name,
  description: Type.Optional(Description),
  resourcePaths: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 200 })),
});
export type RoleInput = Static<typeof RoleInput>;

// ---- system settings ----------------------------------------------------------------------------

export const SYSTEM_SETTING_IDENTIFIER = 'systemSetting';
/** Largest logo accepted, as decoded image bytes. */
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp'] as const;

export const SysConfig = Type.Object({
  id: Type.Integer(),
  identifier: Type.String(),
  name: Type.String(),
  /** JSON text, e.g. systemSetting: {"img":"data:image/png;base64,…","show":true} */
  value: Type.String(),
  description: Type.String(),
  updatedAt: Timestamp,
});
export type SysConfig = Static<typeof SysConfig>;

export const SysConfigInput = Type.Object({
  identifier: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,63}$' }),
  name: Name,
  value: Type.String({ maxLength: 512 * 1024 }),
  description: Type.Optional(Description),
});
export type SysConfigInput = Static<typeof SysConfigInput>;

export const SysConfigQuery = Type.Object({
  ...PageQuery.properties,
  identifier: Type.Optional(Type.String({ maxLength: 64 })),
});

/** Logo config (spec §3): public, read at start by the console. */
export const LogoConfig = Type.Object({ img: Type.String(), show: Type.Boolean() });
export type LogoConfig = Static<typeof LogoConfig>;

// ---- video labels -------------------------------------------------------------------------------

export const Video = Type.Object({
  id: Type.Integer(),
  name: Name,
  streamUrl: Type.String(),
  regionId: Type.Union([Type.Integer(), Type.Null()]),
  regionName: Type.Union([Type.String(), Type.Null()]),
  thingId: Type.Union([Type.Integer(), Type.Null()]),
  thingName: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
});
export type Video = Static<typeof Video>;

export const VideoInput = Type.Object({
  name: Name,
  /** HLS (.m3u8), WebRTC/WHEP, RTSP or HTTP(S) stream address; playback comes later. */
  streamUrl: Type.String({ pattern: '^(https?|rtsp|rtmp|webrtc|wss?)://', maxLength: 2048 }),
  regionId: Type.Optional(Type.Union([RowId, Type.Null()])),
  thingId: Type.Optional(Type.Union([RowId, Type.Null()])),
});
export type VideoInput = Static<typeof VideoInput>;
