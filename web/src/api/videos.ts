import { type VideoInput, videoCreate, videoDelete, videoList, videoUpdate } from '@kilowatch/contract';
import type { TableParams } from '../components/crud/use-table-params.ts';
import { call } from '../lib/call.ts';

/** Video labels (/api/videos); their table caches under `keys.videos.all`. */

export const getVideos = (query: TableParams) => call(videoList, { query });

export const createVideo = (body: VideoInput) => call(videoCreate, { body });

export const updateVideo = (id: number, body: VideoInput) => call(videoUpdate, { params: { id }, body });

export const deleteVideo = (id: number) => call(videoDelete, { params: { id } });
