import type { Video, VideoInput } from '@kilowatch/contract';
import type { PageOf } from '../components/crud/CrudPage.tsx';
import type { TableParams } from '../components/crud/use-table-params.ts';
import { http } from '../lib/http.ts';

/** Video labels (/api/videos); their table caches under `keys.videos.all`. */

export const getVideos = (params: TableParams) => http.get<PageOf<Video>>('/api/videos', { ...params });

export const createVideo = (input: VideoInput) => http.post<Video>('/api/videos', input);

export const updateVideo = (id: number, input: VideoInput) => http.put<Video>(`/api/videos/${id}`, input);

export const deleteVideo = (id: number) => http.delete<void>(`/api/videos/${id}`);
