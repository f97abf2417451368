import { type Static, Type } from 'typebox';
import { IdParams, Ok, Page, PageQuery, RowId } from './common.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants.ts';
import { endpoint } from './endpoint.ts';

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

/**
 * The internal hosts alarm webhooks may reach: host names, addresses and CIDR networks separated by
 * commas or lines. Loopback, link-local and private addresses are refused unless listed here.
 */
export const WEBHOOK_ALLOWED_HOSTS_IDENTIFIER = 'webhookAllowedHosts';

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

/** How the console plays a label (docs/video.md). */
export const VIDEO_PROTOCOLS = ['hls', 'webrtc', 'rtsp'] as const;
export const VideoProtocol = Type.Enum(VIDEO_PROTOCOLS);
export type VideoProtocol = Static<typeof VideoProtocol>;

/** Where a camera's recordings are: none, an HLS playlist with program date-time, an NVR template. */
export const RECORDING_KINDS = ['none', 'hls', 'template'] as const;
export const RecordingKind = Type.Enum(RECORDING_KINDS);
export type RecordingKind = Static<typeof RecordingKind>;

export const Video = Type.Object({
  id: Type.Integer(),
  name: Name,
  streamUrl: Type.String(),
  regionId: Type.Union([Type.Integer(), Type.Null()]),
  regionName: Type.Union([Type.String(), Type.Null()]),
  thingId: Type.Union([Type.Integer(), Type.Null()]),
  thingName: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  protocol: VideoProtocol,
  /** protocol 'rtsp': the gateway's HLS address of this camera (docs/video.md); null otherwise. */
  playUrl: Type.Union([Type.String(), Type.Null()]),
  recordingKind: RecordingKind,
  recordingUrl: Type.Union([Type.String(), Type.Null()]),
});
export type Video = Static<typeof Video>;

/**
 * Schemes a video label's stream address may use (rtsps is RTSP over TLS); the console's form
 * checks the same pattern, so what it lets through the server takes.
 */
export const STREAM_URL_PATTERN = /^(https?|rtsps?|rtmp|webrtc|wss?):\/\/\S+$/;
/** What a browser fetches: HLS and WHEP addresses, a gateway's playlist, recordings. */
export const HTTP_URL_PATTERN = /^https?:\/\/\S+$/;

const HttpUrl = Type.String({ pattern: HTTP_URL_PATTERN.source, maxLength: 2048 });

export const VideoInput = Type.Object({
  name: Name,
  /**
   * 'hls' and 'webrtc': the address the browser plays (http(s) only: an HLS playlist, a WHEP
   * endpoint). 'rtsp': the camera's own address, which only the gateway reads.
   */
  streamUrl: Type.String({ pattern: STREAM_URL_PATTERN.source, maxLength: 2048 }),
  regionId: Type.Optional(Type.Union([RowId, Type.Null()])),
  thingId: Type.Optional(Type.Union([RowId, Type.Null()])),
  /** Left out: 'hls' for an http(s) address, 'rtsp' for any other (labels made before playback). */
  protocol: Type.Optional(VideoProtocol),
  playUrl: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
  recordingKind: Type.Optional(RecordingKind),
  /** 'hls': a playlist with EXT-X-PROGRAM-DATE-TIME; 'template': an address with {start} (and {end}). */
  recordingUrl: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
});
export type VideoInput = Static<typeof VideoInput>;

// ---- endpoints (spec §2 admin routes) -----------------------------------------------------------

const systemTags = ['system'];

export const userList = endpoint({
  method: 'GET',
  path: '/api/users',
  querystring: KeywordQuery,
  response: Page(User),
  tags: systemTags,
  summary: 'Users, paged; name searches username and name',
});

export const userCreate = endpoint({
  method: 'POST',
  path: '/api/users',
  body: UserCreate,
  response: User,
  tags: systemTags,
  summary: 'Create a user (409 when the username is taken, ignoring case)',
});

export const userUpdate = endpoint({
  method: 'PUT',
  path: '/api/users/:id',
  params: IdParams,
  body: UserUpdate,
  response: User,
  tags: systemTags,
  summary: 'Change a user; roleIds/groupIds, when given, replace the memberships',
  description:
    "disabled=true or userLevel=null ends the user's sessions. Refused (422) for yourself, and for the last enabled admin.",
});

export const userDelete = endpoint({
  method: 'DELETE',
  path: '/api/users/:id',
  params: IdParams,
  response: Ok,
  tags: systemTags,
  summary: 'Delete a user (not yourself, not the last enabled admin)',
});

export const userPasswordReset = endpoint({
  method: 'POST',
  path: '/api/users/:id/password',
  params: IdParams,
  body: PasswordReset,
  response: Ok,
  tags: systemTags,
  summary: "Set a user's password; their refresh tokens are revoked",
});

export const groupList = endpoint({
  method: 'GET',
  path: '/api/groups',
  querystring: KeywordQuery,
  response: Page(Group),
  tags: systemTags,
  summary: 'User groups, paged; name searches the group name',
});

export const groupCreate = endpoint({
  method: 'POST',
  path: '/api/groups',
  body: GroupInput,
  response: Group,
  tags: systemTags,
  summary: 'Create a group (409 when the name is taken)',
});

export const groupUpdate = endpoint({
  method: 'PUT',
  path: '/api/groups/:id',
  params: IdParams,
  body: GroupInput,
  response: Group,
  tags: systemTags,
  summary: 'Rename a group or change its description',
});

export const groupDelete = endpoint({
  method: 'DELETE',
  path: '/api/groups/:id',
  params: IdParams,
  response: Ok,
  tags: systemTags,
  summary: 'Delete a group; its members stay, only the membership goes',
});

export const resourceList = endpoint({
  method: 'GET',
  path: '/api/resources',
  response: Type.Array(Resource),
  tags: systemTags,
  summary: "The console's routes that roles can grant, in menu order (parents and leaves)",
});

export const roleList = endpoint({
  method: 'GET',
  path: '/api/roles',
  querystring: KeywordQuery,
  response: Page(Role),
  tags: systemTags,
  summary: 'Assignable roles with their granted routes, paged; name searches code and name',
});

export const roleCreate = endpoint({
  method: 'POST',
  path: '/api/roles',
  body: RoleInput,
  response: Role,
  tags: systemTags,
  summary: 'Create a role (409 when the code is taken; admin and editor are reserved)',
});

export const roleUpdate = endpoint({
  method: 'PUT',
  path: '/api/roles/:id',
  params: IdParams,
  body: RoleInput,
  response: Role,
  tags: systemTags,
  summary: 'Change a role; resourcePaths, when given, replaces its grants',
});

export const roleDelete = endpoint({
  method: 'DELETE',
  path: '/api/roles/:id',
  params: IdParams,
  response: Ok,
  tags: systemTags,
  summary: 'Delete a role nobody holds (409 naming how many users still do)',
});

const LOGO_RULE =
  'For identifier systemSetting the value must be JSON {"img", "show"}: img empty, an http(s) address or a base64 data URL (image/png, image/jpeg, image/svg+xml, image/webp) of at most 256 KB; show a boolean.';

export const sysConfigLogo = endpoint({
  method: 'GET',
  path: '/api/sysconfigs/logo',
  response: LogoConfig,
  tags: systemTags,
  summary: 'Logo config (img, show), read by the console at start; no token needed',
});

export const sysConfigList = endpoint({
  method: 'GET',
  path: '/api/sysconfigs',
  querystring: SysConfigQuery,
  response: Page(SysConfig),
  tags: systemTags,
  summary: 'System settings, paged; identifier filters to one setting (e.g. systemSetting)',
});

export const sysConfigCreate = endpoint({
  method: 'POST',
  path: '/api/sysconfigs',
  body: SysConfigInput,
  response: SysConfig,
  tags: systemTags,
  summary: 'Create a setting (409 when the identifier is taken)',
  description: LOGO_RULE,
});

export const sysConfigUpdate = endpoint({
  method: 'PUT',
  path: '/api/sysconfigs/:id',
  params: IdParams,
  body: SysConfigInput,
  response: SysConfig,
  tags: systemTags,
  summary: 'Change a setting; systemSetting cannot be renamed',
  description: LOGO_RULE,
});

export const sysConfigDelete = endpoint({
  method: 'DELETE',
  path: '/api/sysconfigs/:id',
  params: IdParams,
  response: Ok,
  tags: systemTags,
  summary: 'Delete a setting; systemSetting cannot be deleted (422)',
});

/** Video labels (management): every field, stream addresses with their credentials included. */
export const videoList = endpoint({
  method: 'GET',
  path: '/api/videos',
  querystring: KeywordQuery,
  response: Page(Video),
  tags: ['video'],
  summary: 'Video labels, paged; name searches the label',
});

export const videoCreate = endpoint({
  method: 'POST',
  path: '/api/videos',
  body: VideoInput,
  response: Video,
  tags: ['video'],
  summary: 'Create a video label (regionId/thingId must exist: 422)',
});

export const videoUpdate = endpoint({
  method: 'PUT',
  path: '/api/videos/:id',
  params: IdParams,
  body: VideoInput,
  response: Video,
  tags: ['video'],
  summary: 'Change a video label',
});

export const videoDelete = endpoint({
  method: 'DELETE',
  path: '/api/videos/:id',
  params: IdParams,
  response: Ok,
  tags: ['video'],
  summary: 'Delete a video label',
});

// ---- video monitoring (the /video screen) -------------------------------------------------------

/** What the browser plays: an HLS playlist or a WHEP endpoint (WebRTC). */
export const CameraPlay = Type.Object({
  protocol: Type.Union([Type.Literal('hls'), Type.Literal('webrtc')]),
  url: Type.String(),
});

/**
 * A camera as the video monitoring screen sees it: no RTSP source address (it usually carries the
 * camera's password and the browser cannot use it), only what plays.
 */
export const Camera = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  regionId: Type.Union([Type.Integer(), Type.Null()]),
  regionName: Type.Union([Type.String(), Type.Null()]),
  thingId: Type.Union([Type.Integer(), Type.Null()]),
  thingName: Type.Union([Type.String(), Type.Null()]),
  /** null: an RTSP camera without a gateway address yet. */
  play: Type.Union([CameraPlay, Type.Null()]),
  recording: Type.Union([
    Type.Object({ kind: Type.Union([Type.Literal('hls'), Type.Literal('template')]), url: Type.String() }),
    Type.Null(),
  ]),
  /** Why it is listed for a thing: bound to the thing itself, or to a region holding it. */
  match: Type.Union([Type.Literal('thing'), Type.Literal('region'), Type.Null()]),
});
export type Camera = Static<typeof Camera>;

export const CameraQuery = Type.Object({
  /** The cameras of one device: bound to it, then to the regions it is in (nearest first). */
  thingId: Type.Optional(RowId),
});

export const CameraList = Type.Array(Camera);

export const videoCameras = endpoint({
  method: 'GET',
  path: '/api/video/cameras',
  querystring: CameraQuery,
  response: CameraList,
  tags: ['video'],
  summary: 'Cameras to watch (every user): what plays, recordings, bindings; thingId narrows to a device',
});
