import type { RegionNode, Video, VideoInput } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import type { TableParams } from '../../../components/crud/use-table-params.ts';
import { http } from '../../../lib/http.ts';
import { videoKeys } from './keys.ts';

export const getVideos = (params: TableParams) => http.get<PageOf<Video>>('/api/videos', { ...params });

export const createVideo = (input: VideoInput) => http.post<Video>('/api/videos', input);

export const updateVideo = (id: number, input: VideoInput) => http.put<Video>(`/api/videos/${id}`, input);

export const deleteVideo = (id: number) => http.delete<void>(`/api/videos/${id}`);

/** The region tree, for the region a video label is bound to. */
export const getRegionTree = () => http.get<RegionNode[]>('/api/regions', undefined, { silent: true });

export const useRegionTree = () => useQuery({ queryKey: videoKeys.regions, queryFn: getRegionTree });
