import type { RegionNode, Video, VideoInput } from '@kilowatch/contract';
import { Form, Input, Radio, Space, Tag, TreeSelect, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { useRegionTree } from '../../../api/regions.ts';
import { createVideo, deleteVideo, getVideos, updateVideo } from '../../../api/videos.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { ThingPicker } from './ThingPicker.tsx';

/** Schemes a stream address may use (contract VideoInput.streamUrl). */
export const STREAM_URL_REGEXP = /^(https?|rtsp|rtmp|webrtc|wss?):\/\/\S+$/i;

type BindTo = 'none' | 'region' | 'thing';

export interface VideoValues {
  name: string;
  streamUrl: string;
  bindTo: BindTo;
  regionId?: number | null;
  thingId?: number | null;
}

export const toVideoInput = (values: VideoValues): VideoInput => ({
  name: values.name.trim(),
  streamUrl: values.streamUrl.trim(),
  regionId: values.bindTo === 'region' ? (values.regionId ?? null) : null,
  thingId: values.bindTo === 'thing' ? (values.thingId ?? null) : null,
});

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

/** /device_management/video: video labels (name, stream address, bound region or thing). */
export function VideoPage() {
  const { t } = useTranslation();
  return (
    <CrudPage<Video, VideoValues>
      queryKey={keys.videos.all}
      title={
        <Space size="middle" wrap>
          {t('route.videoManagement')}
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>
            {t('devices.video.playbackLater')}
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
          <Form.Item
            name="streamUrl"
            label={t('devices.video.fields.streamUrl')}
            extra={t('devices.video.streamUrlHint')}
            rules={[
              { required: true, whitespace: true, message: t('devices.validation.streamUrlRequired') },
              { pattern: STREAM_URL_REGEXP, message: t('devices.validation.streamUrlPattern') },
              { max: 2048, message: t('devices.validation.maxLength', { max: 2048 }) },
            ]}
          >
            <Input placeholder="rtsp://192.168.1.10:554/stream1" maxLength={2048} />
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
