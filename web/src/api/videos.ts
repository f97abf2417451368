import {
  type VideoInput,
  videoCameras,
  videoCreate,
  videoDelete,
  videoList,
  videoUpdate,
} from '@kilowatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../lib/call.ts';
import type { TableParams } from '../lib/table-params.ts';
import { keys } from './keys.ts';

/**
 * Video labels (/api/videos) and the cameras to watch (/api/video/cameras); both cache under
 * `keys.videos.all`, so a label changed in management shows on the monitoring screen at once.
 */

export const getVideos = (query: TableParams) => call(videoList, { query });

export const createVideo = (body: VideoInput) => call(videoCreate, { body });

export const updateVideo = (id: number, body: VideoInput) => call(videoUpdate, { params: { id }, body });

export const deleteVideo = (id: number) => call(videoDelete, { params: { id } });

/** The cameras to watch; with `thingId`, a device's own cameras, then its regions' (nearest first). */
const getCameras = (thingId: number | null = null) =>
  call(videoCameras, { query: { thingId: thingId ?? undefined }, silent: true });

const camerasQuery = (thingId: number | null = null) =>
  queryOptions({ queryKey: keys.videos.cameras(thingId), queryFn: () => getCameras(thingId) });

export const useCameras = (thingId: number | null = null, options: { enabled?: boolean } = {}) =>
  useQuery({ ...camerasQuery(thingId), enabled: options.enabled ?? true });
