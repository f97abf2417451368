import { naturalCompare, type RecordingKind, type Video, type VideoProtocol } from '@kilowatch/contract';
import { sql } from 'kysely';
import { containsPattern, type Db } from '../../../db/sql.ts';

/** Video labels with the names of the region and thing they point at. */
const selectVideos = (db: Db) =>
  db
    .selectFrom('videos')
    .leftJoin('regions', 'regions.id', 'videos.region_id')
    .leftJoin('things', 'things.id', 'videos.thing_id')
    .select([
      'videos.id',
      'videos.name',
      'videos.stream_url',
      'videos.region_id',
      'regions.name as region_name',
      'videos.thing_id',
      'things.name as thing_name',
      'videos.created_at',
      'videos.protocol',
      'videos.play_url',
      'videos.recording_kind',
      'videos.recording_url',
    ]);

type VideoRow = Awaited<ReturnType<ReturnType<typeof selectVideos>['executeTakeFirstOrThrow']>>;

const toVideo = (r: VideoRow): Video => ({
  id: r.id,
  name: r.name,
  streamUrl: r.stream_url,
  regionId: r.region_id,
  regionName: r.region_name,
  thingId: r.thing_id,
  thingName: r.thing_name,
  createdAt: r.created_at,
  protocol: r.protocol as VideoProtocol,
  playUrl: r.play_url,
  recordingKind: r.recording_kind as RecordingKind,
  recordingUrl: r.recording_url,
});

/**
 * A page of the labels whose name contains the keyword, in natural order of names (1#, 2#, … 10#,
 * as the device list and the monitoring screen): the ids are sorted here, before paging, since
 * neither SQL dialect collates numbers naturally; a plant has at most a few hundred cameras.
 */
export async function listVideos(
  db: Db,
  { keyword, limit, offset }: { keyword?: string; limit: number; offset: number },
): Promise<{ videos: Video[]; total: number }> {
  let names = db.selectFrom('videos').select(['videos.id', 'videos.name']);
  if (keyword) {
    const pattern = sql<string>`${containsPattern(keyword)} escape '\\'`;
    names = names.where(sql`lower(${sql.ref('videos.name')})`, 'like', pattern);
  }
  const ordered = (await names.execute()).sort((a, b) => naturalCompare(a.name, b.name) || a.id - b.id);
  const ids = ordered.slice(offset, offset + limit).map((r) => r.id);
  if (ids.length === 0) return { videos: [], total: ordered.length };
  const byId = new Map(
    (await selectVideos(db).where('videos.id', 'in', ids).execute()).map((r) => [r.id, toVideo(r)]),
  );
  return { videos: ids.flatMap((id) => byId.get(id) ?? []), total: ordered.length };
}

export async function findVideo(db: Db, id: number): Promise<Video | undefined> {
  const row = await selectVideos(db).where('videos.id', '=', id).executeTakeFirst();
  return row && toVideo(row);
}

export interface VideoFields {
  name: string;
  streamUrl: string;
  regionId: number | null;
  thingId: number | null;
  protocol: VideoProtocol;
  playUrl: string | null;
  recordingKind: RecordingKind;
  recordingUrl: string | null;
}

const columns = (input: VideoFields) => ({
  name: input.name,
  stream_url: input.streamUrl,
  region_id: input.regionId,
  thing_id: input.thingId,
  protocol: input.protocol,
  play_url: input.playUrl,
  recording_kind: input.recordingKind,
  recording_url: input.recordingUrl,
});

export async function insertVideo(db: Db, input: VideoFields, now: string): Promise<number> {
  const { id } = await db
    .insertInto('videos')
    .values({ ...columns(input), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateVideo(db: Db, id: number, input: VideoFields, now: string): Promise<boolean> {
  const result = await db
    .updateTable('videos')
    .set({ ...columns(input), updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteVideo(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('videos').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function regionExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('regions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function thingExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('things').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Every label, for the monitoring screen (a plant has tens to a few hundred cameras), in natural
 * order of names (1#, 2#, … 10#), which neither SQL dialect collates.
 */
export async function allVideos(db: Db): Promise<Video[]> {
  const videos = (await selectVideos(db).execute()).map(toVideo);
  return videos.sort((a, b) => naturalCompare(a.name, b.name) || a.id - b.id);
}

/** The regions a thing is bound to directly. */
export async function regionsOfThing(db: Db, thingId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('region_things')
    .select('region_id')
    .where('thing_id', '=', thingId)
    .execute();
  return rows.map((r) => r.region_id);
}

/** Every region's parent, to walk up from a thing's regions. */
export async function regionParents(db: Db): Promise<Map<number, number | null>> {
  const rows = await db.selectFrom('regions').select(['id', 'parent_id']).execute();
  return new Map(rows.map((r) => [r.id, r.parent_id]));
}
