import {
  HTTP_URL_PATTERN,
  RECORDING_KINDS,
  type RecordingKind,
  type RegionNode,
  STREAM_URL_PATTERN,
  VIDEO_PROTOCOLS,
  type Video,
  type VideoInput,
  type VideoProtocol,
} from '@kilowatch/contract';
import { Form, Input, Radio, Space, Tag, TreeSelect, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { useRegionTree } from '../../../api/regions.ts';
import { createVideo, deleteVideo, getVideos, updateVideo } from '../../../api/videos.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { ThingPicker } from './ThingPicker.tsx';

type BindTo = 'none' | 'region' | 'thing';

export interface VideoValues {
  name: string;
  streamUrl: string;
  bindTo: BindTo;
  regionId?: number | null;
  thingId?: number | null;
  protocol?: VideoProtocol;
  playUrl?: string | null;
  recordingKind?: RecordingKind;
  recordingUrl?: string | null;
}

const trimmedOrNull = (value: string | null | undefined) => value?.trim() || null;

/** The label to send; without a protocol (none chosen) the server infers it from the address. */
export const toVideoInput = (values: VideoValues): VideoInput => {
  const input: VideoInput = {
    name: values.name.trim(),
    streamUrl: values.streamUrl.trim(),
    regionId: values.bindTo === 'region' ? (values.regionId ?? null) : null,
    thingId: values.bindTo === 'thing' ? (values.thingId ?? null) : null,
  };
  if (values.protocol === undefined) return input;
  const recordingKind = values.recordingKind ?? 'none';
  return {
    ...input,
    protocol: values.protocol,
    playUrl: values.protocol === 'rtsp' ? trimmedOrNull(values.playUrl) : null,
    recordingKind,
    recordingUrl: recordingKind === 'none' ? null : trimmedOrNull(values.recordingUrl),
  };
};

interface TreeOption {
  value: number;
  title: string;
  children: TreeOption[];
}

const toTreeData = (nodes: RegionNode[]): TreeOption[] =>
  nodes
    .filter((n) => n.resourceType !== 'thing')
    .map((n) => ({ value: n.id, title: n.name, children: toTreeData(n.children ?? []) }));

function RegionPicker(props: { value?: number | null; onChange?(value: number | null): void }) {
  const { t } = useTranslation();
  const tree = useRegionTree();
  return (
    <TreeSelect<number>
      treeData={toTreeData(tree.data ?? [])}
      value={props.value ?? undefined}
      onChange={(value) => props.onChange?.(value ?? null)}
      loading={tree.isFetching}
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      allowClear
      placeholder={t('devices.video.selectRegion')}
      notFoundContent={tree.isError ? t('devices.common.loadFailed') : undefined}
    />
  );
}

/**
 * /device_management/video: video labels (name, how it plays and its address, the gateway's address
 * of an RTSP camera, where its recordings are, bound region or thing).
 */
export function VideoPage() {
  const { t } = useTranslation();
  return (
    <CrudPage<Video, VideoValues>
      queryKey={keys.videos.all}
      title={
        <Space size="middle" wrap>
          {t('route.videoManagement')}
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>
            {t('devices.video.playbackHint')}
          </Typography.Text>
        </Space>
      }
      fetchPage={getVideos}
      columns={[
        { title: t('devices.video.fields.name'), dataIndex: 'name' },
        {
          title: t('devices.video.fields.streamUrl'),
          dataIndex: 'streamUrl',
          render: (url: string) => (
            <Typography.Text copyable ellipsis={{ tooltip: url }} style={{ maxWidth: 360 }}>
              {url}
            </Typography.Text>
          ),
        },
        {
          title: t('devices.video.extraFields.protocol'),
          dataIndex: 'protocol',
          render: (protocol: VideoProtocol, row) => (
            <Space size={2}>
              <Tag>{t(`devices.video.protocols.${protocol}`)}</Tag>
              {protocol === 'rtsp' && !row.playUrl && (
                <Tag color="warning">{t('devices.video.noGateway')}</Tag>
              )}
            </Space>
          ),
        },
        {
          title: t('devices.video.extraFields.recordingKind'),
          dataIndex: 'recordingKind',
          render: (kind: RecordingKind) =>
            kind === 'none' ? (
              <Typography.Text type="secondary">{t('devices.video.recordingKinds.none')}</Typography.Text>
            ) : (
              t(`devices.video.recordingKinds.${kind}`)
            ),
        },
        {
          title: t('devices.video.fields.binding'),
          key: 'binding',
          render: (_, row) =>
            row.regionId != null ? (
              <Tag color="green">
                {t('devices.video.boundRegion', { name: row.regionName ?? `#${row.regionId}` })}
              </Tag>
            ) : row.thingId != null ? (
              <Tag color="blue">
                {t('devices.video.boundThing', { name: row.thingName ?? `#${row.thingId}` })}
              </Tag>
            ) : (
              <Typography.Text type="secondary">{t('devices.video.unbound')}</Typography.Text>
            ),
        },
      ]}
      toFormValues={(row) => ({
        name: row.name,
        streamUrl: row.streamUrl,
        bindTo: row.regionId != null ? 'region' : row.thingId != null ? 'thing' : 'none',
        regionId: row.regionId,
        thingId: row.thingId,
        protocol: row.protocol,
        playUrl: row.playUrl,
        recordingKind: row.recordingKind,
        recordingUrl: row.recordingUrl,
      })}
      create={(values) => createVideo(toVideoInput(values))}
      update={(id, values) => updateVideo(id, toVideoInput(values))}
      remove={(row) => deleteVideo(row.id)}
      describeRow={(row) => row.name}
      renderForm={(_, editing) => (
        <>
          <Form.Item
            name="name"
            label={t('devices.video.fields.name')}
            rules={[
              { required: true, whitespace: true, message: t('devices.validation.nameRequired') },
              { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
            ]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="protocol" label={t('devices.video.extraFields.protocol')} initialValue="hls">
            <Radio.Group
              optionType="button"
              options={VIDEO_PROTOCOLS.map((p) => ({ value: p, label: t(`devices.video.protocols.${p}`) }))}
            />
          </Form.Item>
          <Form.Item noStyle dependencies={['protocol']}>
            {({ getFieldValue }) => {
              const protocol: VideoProtocol = getFieldValue('protocol') ?? 'hls';
              return (
                <>
                  <Form.Item
                    name="streamUrl"
                    label={t('devices.video.fields.streamUrl')}
                    extra={t(`devices.video.streamUrlHints.${protocol}`)}
                    rules={[
                      {
                        required: true,
                        whitespace: true,
                        message: t('devices.validation.streamUrlRequired'),
                      },
                      { pattern: STREAM_URL_PATTERN, message: t('devices.validation.streamUrlPattern') },
                      { max: 2048, message: t('devices.validation.maxLength', { max: 2048 }) },
                      {
                        validator: async (_, value?: string) => {
                          if (!value?.trim() || !STREAM_URL_PATTERN.test(value.trim())) return;
                          const http = HTTP_URL_PATTERN.test(value.trim());
                          if (protocol !== 'rtsp' && !http)
                            throw new Error(t('devices.validation.streamUrlHttp'));
                          if (protocol === 'rtsp' && http)
                            throw new Error(t('devices.validation.streamUrlRtsp'));
                        },
                      },
                    ]}
                  >
                    <Input
                      placeholder={
                        protocol === 'rtsp'
                          ? 'rtsp://192.168.1.10:554/stream1'
                          : protocol === 'webrtc'
                            ? 'http://gw:8889/cam1/whep'
                            : 'https://gw:8888/cam1/index.m3u8'
                      }
                      maxLength={2048}
                    />
                  </Form.Item>
                  {protocol === 'rtsp' && (
                    <Form.Item
                      name="playUrl"
                      label={t('devices.video.extraFields.playUrl')}
                      extra={t('devices.video.playUrlHint')}
                      rules={[
                        { pattern: HTTP_URL_PATTERN, message: t('devices.validation.httpUrl') },
                        { max: 2048, message: t('devices.validation.maxLength', { max: 2048 }) },
                      ]}
                    >
                      <Input placeholder="http://gw:8888/cam1/index.m3u8" maxLength={2048} />
                    </Form.Item>
                  )}
                </>
              );
            }}
          </Form.Item>
          <Form.Item
            name="recordingKind"
            label={t('devices.video.extraFields.recordingKind')}
            initialValue="none"
          >
            <Radio.Group
              optionType="button"
              options={RECORDING_KINDS.map((k) => ({
                value: k,
                label: t(`devices.video.recordingKinds.${k}`),
              }))}
            />
          </Form.Item>
          <Form.Item noStyle dependencies={['recordingKind']}>
            {({ getFieldValue }) => {
              const kind: RecordingKind = getFieldValue('recordingKind') ?? 'none';
              return kind === 'none' ? null : (
                <Form.Item
                  name="recordingUrl"
                  label={t('devices.video.extraFields.recordingUrl')}
                  extra={t(`devices.video.recordingUrlHints.${kind}`)}
                  rules={[
                    {
                      required: true,
                      whitespace: true,
                      message: t('devices.validation.recordingUrlRequired'),
                    },
                    { pattern: HTTP_URL_PATTERN, message: t('devices.validation.httpUrl') },
                    { max: 2048, message: t('devices.validation.maxLength', { max: 2048 }) },
                    ...(kind === 'template'
                      ? [
                          {
                            validator: async (_: unknown, value?: string) => {
                              if (value?.trim() && !value.includes('{start}')) {
                                throw new Error(t('devices.validation.templateStart'));
                              }
                            },
                          },
                        ]
                      : []),
                  ]}
                >
                  <Input
                    placeholder={
                      kind === 'template'
                        ? 'http://gw:9996/get?path=cam1&start={start}&duration={duration}&format=mp4'
                        : 'https://nvr/cam1/event.m3u8'
                    }
                    maxLength={2048}
                  />
                </Form.Item>
              );
            }}
          </Form.Item>
          <Form.Item name="bindTo" label={t('devices.video.fields.binding')} initialValue="none">
            <Radio.Group
              optionType="button"
              options={[
                { value: 'none', label: t('devices.video.bindNone') },
                { value: 'region', label: t('devices.video.bindRegion') },
                { value: 'thing', label: t('devices.video.bindThing') },
              ]}
            />
          </Form.Item>
          <Form.Item noStyle dependencies={['bindTo']}>
            {({ getFieldValue }) =>
              getFieldValue('bindTo') === 'region' ? (
                <Form.Item
                  name="regionId"
                  label={t('devices.video.fields.region')}
                  rules={[{ required: true, message: t('devices.validation.regionRequired') }]}
                >
                  <RegionPicker />
                </Form.Item>
              ) : getFieldValue('bindTo') === 'thing' ? (
                <Form.Item
                  name="thingId"
                  label={t('devices.video.fields.thing')}
                  rules={[{ required: true, message: t('devices.validation.thingRequired') }]}
                >
                  <ThingPicker
                    allowClear
                    current={
                      editing?.thingId != null ? { id: editing.thingId, name: editing.thingName ?? '' } : null
                    }
                  />
                </Form.Item>
              ) : null
            }
          </Form.Item>
        </>
      )}
    />
  );
}
