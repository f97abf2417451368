import type { Video, VideoInput } from '@kilowatch/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { page } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import * as repo from './repository.ts';

const notFound = () => new AppError('NOT_FOUND', 404);

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
    return { name: input.name, streamUrl: input.streamUrl, regionId, thingId };
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

    async remove(id: number): Promise<void> {
      if (!(await repo.deleteVideo(db, id))) throw notFound();
    },
  };
}
export type VideoService = ReturnType<typeof createVideoService>;
