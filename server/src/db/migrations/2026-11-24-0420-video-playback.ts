import { type Kysely, sql } from 'kysely';

// Frozen in time: this file must keep producing the same columns even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // How the console plays a label: 'hls' and 'webrtc' (WHEP) play stream_url in the browser;
  // 'rtsp' keeps the camera's own address in stream_url, which a gateway pulls and serves at
  // play_url (HLS). Recordings: 'hls' is a playlist with EXT-X-PROGRAM-DATE-TIME, 'template' an
  // NVR playback address with {start}/{end} placeholders; 'none' has no recording.
  await db.schema
    .alterTable('videos')
    .addColumn('protocol', 'text', (c) => c.notNull().defaultTo('hls'))
    .execute();
  await db.schema.alterTable('videos').addColumn('play_url', 'text').execute();
  await db.schema
    .alterTable('videos')
    .addColumn('recording_kind', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema.alterTable('videos').addColumn('recording_url', 'text').execute();
  // Labels stored before playback existed: what a browser cannot fetch is a camera behind a gateway.
  await db
    .updateTable('videos')
    .set({ protocol: 'rtsp' })
    .where(sql<boolean>`lower(stream_url) not like 'http://%' and lower(stream_url) not like 'https://%'`)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['recording_url', 'recording_kind', 'play_url', 'protocol']) {
    await db.schema.alterTable('videos').dropColumn(column).execute();
  }
}
