import type { Camera, Video, VideoInput, VideoProtocol } from '@kilowatch/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { page } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import type { MessageKey } from '../../../i18n/index.ts';
import * as repo from './repository.ts';

const notFound = () => new AppError('NOT_FOUND', 404);
const badInput = (message: MessageKey) => new AppError('BAD_REQUEST', 400, {}, { message });

const isHttp = (url: string) => /^https?:\/\//i.test(url);

/**
 * The playback fields of a label, checked together: the browser fetches only http(s) addresses
 * (an HLS playlist, a WHEP endpoint, a gateway's playlist, a recording), so any other scheme is
 * a camera behind a gateway (docs/video.md). A label sent without `protocol` (as before playback
 * existed) is 'hls' when its address is http(s), 'rtsp' otherwise.
 */
function playbackFields(
  input: VideoInput,
): Pick<repo.VideoFields, 'protocol' | 'playUrl' | 'recordingKind' | 'recordingUrl'> {
  const protocol: VideoProtocol = input.protocol ?? (isHttp(input.streamUrl) ? 'hls' : 'rtsp');
  if (protocol !== 'rtsp' && !isHttp(input.streamUrl)) throw badInput('video.playHttp');
  if (protocol === 'rtsp' && isHttp(input.streamUrl)) throw badInput('video.rtspSource');
  const recordingKind = input.recordingKind ?? 'none';
  const recordingUrl = recordingKind === 'none' ? null : (input.recordingUrl ?? null);
  if (recordingKind !== 'none' && !recordingUrl) throw badInput('video.recordingUrlRequired');
  if (recordingKind === 'template' && !recordingUrl?.includes('{start}'))
    throw badInput('video.recordingTemplate');
  return {
    protocol,
    playUrl: protocol === 'rtsp' ? (input.playUrl ?? null) : null,
    recordingKind,
    recordingUrl,
  };
}

/** What the monitoring screen may know of a label: no RTSP source (it holds the camera's password). */
const toCamera = (video: Video, match: Camera['match'] = null): Camera => ({
  id: video.id,
  name: video.name,
  regionId: video.regionId,
  regionName: video.regionName,
  thingId: video.thingId,
  thingName: video.thingName,
  play:
    video.protocol === 'rtsp'
      ? video.playUrl
        ? { protocol: 'hls', url: video.playUrl }
        : null
      : { protocol: video.protocol, url: video.streamUrl },
  recording:
    video.recordingKind === 'none' || !video.recordingUrl
      ? null
      : { kind: video.recordingKind, url: video.recordingUrl },
  match,
});

/** Video labels (/device_management/video): stream addresses attached to a region or thing. */
export function createVideoService(db: Kysely<DB>, now: () => number) {
  const iso = () => new Date(now()).toISOString();

  async function fields(trx: Transaction<DB>, input: VideoInput): Promise<repo.VideoFields> {
    const regionId = input.regionId ?? null;
    const thingId = input.thingId ?? null;
    if (regionId !== null && !(await repo.regionExists(trx, regionId))) {
      throw new AppError('UNPROCESSABLE', 422, { id: regionId }, { message: 'video.regionUnknown' });
    }
    if (thingId !== null && !(await repo.thingExists(trx, thingId))) {
      throw new AppError('UNPROCESSABLE', 422, { id: thingId }, { message: 'video.thingUnknown' });
    }
    return { name: input.name, streamUrl: input.streamUrl, regionId, thingId, ...playbackFields(input) };
  }

  return {
    async list(query: { page?: number; pageSize?: number; name?: string }) {
      const { page: at, pageSize, limit, offset } = page(query);
      const { videos, total } = await repo.listVideos(db, { keyword: query.name, limit, offset });
      return { list: videos, total, page: at, pageSize };
    },

    async create(input: VideoInput): Promise<Video> {
      const id = await db
        .transaction()
        .execute(async (trx) => repo.insertVideo(trx, await fields(trx, input), iso()));
      return (await repo.findVideo(db, id)) as Video;
    },

    async update(id: number, input: VideoInput): Promise<Video> {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.updateVideo(trx, id, await fields(trx, input), iso()))) throw notFound();
      });
      return (await repo.findVideo(db, id)) as Video;
    },

    /**
     * Cameras to watch. For a thing: those bound to it, then those of the regions it is bound to
     * and of their ancestors, nearest region first (a hall camera also watches the line inside).
     */
    async cameras(query: { thingId?: number }): Promise<Camera[]> {
      const videos = await repo.allVideos(db);
      if (query.thingId === undefined) return videos.map((v) => toCamera(v));
      const thingId = query.thingId;
      const [direct, parents] = await Promise.all([repo.regionsOfThing(db, thingId), repo.regionParents(db)]);
      const distance = new Map<number, number>();
      for (const start of direct) {
        let step = 0;
        for (let at: number | null | undefined = start; at != null; at = parents.get(at)) {
          if ((distance.get(at) ?? Number.POSITIVE_INFINITY) <= step) break;
          distance.set(at, step++);
        }
      }
      const own = videos.filter((v) => v.thingId === thingId).map((v) => toCamera(v, 'thing'));
      const nearby = videos
        .filter((v) => v.regionId !== null && distance.has(v.regionId))
        .sort((a, b) => (distance.get(a.regionId as number) ?? 0) - (distance.get(b.regionId as number) ?? 0))
        .map((v) => toCamera(v, 'region'));
      return [...own, ...nearby];
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.deleteVideo(db, id))) throw notFound();
    },
  };
}
export type VideoService = ReturnType<typeof createVideoService>;
