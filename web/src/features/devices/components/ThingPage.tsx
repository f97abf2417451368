import { AppstoreOutlined, KeyOutlined, UploadOutlined } from '@ant-design/icons';
import type { Thing, ThingAttribute, ThingInput, ThingListItem } from '@kilowatch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keys, thenInvalidate } from '../../../api/keys.ts';
import { createThing, deleteThing, getThings, updateThing } from '../../../api/things.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { IconAction } from '../../../components/crud/IconAction.tsx';
import { ThingEventsButton } from '../../../components/events/ThingEventsButton.tsx';
import { AttributesEditor } from './AttributesEditor.tsx';
import { identifierRules } from './ability-options.ts';
import { CategorySelect } from './CategorySelect.tsx';
import { ModelSelect } from './ModelSelect.tsx';
import { LastSeen, LiveDataLink, PresenceSelect, PresenceTag, usePresenceFilter } from './presence.tsx';
import { ThingAbilitiesDrawer } from './ThingAbilitiesDrawer.tsx';
import { ThingImportModal } from './ThingImportModal.tsx';
import { ThingTokenModal } from './ThingTokenModal.tsx';
import { useIdFilters } from './use-id-filter.ts';

const FILTERS = ['categoryId', 'modelId'] as const;

export interface ThingValues {
  identifier: string;
  name: string;
  modelId: number;
  description?: string;
  attributes?: ThingAttribute[];
}

export const toThingInput = (values: ThingValues): ThingInput => ({
  identifier: values.identifier.trim(),
  name: values.name.trim(),
  modelId: values.modelId,
  description: values.description?.trim() ?? '',
  setting: {
    attributes: (values.attributes ?? []).map((a) => ({
      identifier: a.identifier.trim(),
      name: a.name.trim(),
      value: a.value?.trim() ?? '',
    })),
  },
});

/** /device_management/nodes: things (devices), their abilities, access tokens and bulk import. */
export function ThingPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [idFilters, setFilters] = useIdFilters(FILTERS);
  const [presence, setPresence] = usePresenceFilter();
  const filters = { ...idFilters, presence };
  const [abilitiesOf, setAbilitiesOf] = useState<Thing | null>(null);
  const [tokenOf, setTokenOf] = useState<Thing | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  // Models count their things.
  const refreshAll = [keys.things.all] as const;

  return (
    <>
      <CrudPage<ThingListItem, ThingValues>
        queryKey={keys.things.things.list(filters)}
        title={t('route.nodes')}
        searchPlaceholder={t('devices.thing.searchPlaceholder')}
        fetchPage={(params) => getThings({ ...params, ...filters })}
        dialogWidth={720}
        toolbar={
          <>
            <CategorySelect
              allowClear
              value={filters.categoryId}
              onChange={(categoryId) => setFilters({ categoryId, modelId: undefined })}
              placeholder={t('devices.common.allCategories')}
              style={{ width: 180 }}
              aria-label={t('devices.common.categoryFilter')}
            />
            <ModelSelect
              allowClear
              categoryId={filters.categoryId}
              value={filters.modelId}
              onChange={(modelId) => setFilters({ modelId })}
              placeholder={t('devices.common.allModels')}
              style={{ width: 200 }}
              aria-label={t('devices.common.modelFilter')}
            />
            <PresenceSelect value={presence} onChange={setPresence} />
            <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
              {t('devices.import.action')}
            </Button>
          </>
        }
        columns={[
          { title: t('devices.thing.fields.identifier'), dataIndex: 'identifier' },
          { title: t('devices.thing.fields.name'), dataIndex: 'name' },
          {
            title: t('devices.presence.title'),
            dataIndex: 'presence',
            render: (_, row) => <PresenceTag presence={row.presence} />,
          },
          {
            title: t('devices.presence.lastSeen'),
            dataIndex: 'lastSeen',
            render: (_, row) => <LastSeen at={row.lastSeen} />,
          },
          { title: t('devices.thing.fields.model'), dataIndex: 'modelName' },
          { title: t('devices.thing.fields.category'), dataIndex: 'categoryName' },
          {
            title: t('devices.thing.fields.description'),
            dataIndex: 'description',
            // Two lines at most, wrapping: a one-line ellipsis keeps the column as wide as its text.
            render: (description: string) => (
              <Typography.Paragraph ellipsis={{ rows: 2, tooltip: description }} style={{ margin: 0 }}>
                {description}
              </Typography.Paragraph>
            ),
          },
        ]}
        toFormValues={(row) => ({
          identifier: row.identifier,
          name: row.name,
          modelId: row.modelId,
          description: row.description,
          attributes: row.setting?.attributes ?? [],
        })}
        create={thenInvalidate(queryClient, refreshAll, (values: ThingValues) =>
          createThing(toThingInput(values)),
        )}
        update={thenInvalidate(queryClient, refreshAll, (id: number, values: ThingValues) =>
          updateThing(id, toThingInput(values)),
        )}
        remove={thenInvalidate(queryClient, refreshAll, (row: Thing) => deleteThing(row.id))}
        describeRow={(row) => `${row.name} (${row.identifier})`}
        // Six actions as icons with their names on hover: the fixed actions column stays narrow
        // enough that the table's columns fit beside it at 1366 px in zh, en and es.
        iconActions
        rowActions={(row) => (
          <>
            <LiveDataLink thingId={row.id} />
            <ThingEventsButton thingId={row.id} name={row.name} link />
            <IconAction
              label={t('devices.common.abilities')}
              icon={<AppstoreOutlined />}
              onClick={() => setAbilitiesOf(row)}
            />
            <IconAction
              label={t('devices.token.action')}
              icon={<KeyOutlined />}
              onClick={() => setTokenOf(row)}
            />
          </>
        )}
        renderForm={(_, editing) => (
          <>
            <Form.Item
              name="identifier"
              label={t('devices.thing.fields.identifier')}
              rules={identifierRules(t)}
              extra={t('devices.thing.identifierHint')}
            >
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="name"
              label={t('devices.thing.fields.name')}
              rules={[
                { required: true, whitespace: true, message: t('devices.validation.nameRequired') },
                { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
              ]}
            >
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item
              name="modelId"
              label={t('devices.thing.fields.model')}
              initialValue={editing ? undefined : filters.modelId}
              rules={[{ required: true, message: t('devices.validation.modelRequired') }]}
            >
              <ModelSelect />
            </Form.Item>
            <Form.Item
              name="description"
              label={t('devices.thing.fields.description')}
              rules={[{ max: 500, message: t('devices.validation.maxLength', { max: 500 }) }]}
            >
              <Input.TextArea rows={2} showCount maxLength={500} />
            </Form.Item>
            <Form.Item
              label={t('devices.thing.fields.attributes')}
              tooltip={t('devices.thing.attributesHint')}
            >
              <AttributesEditor />
            </Form.Item>
          </>
        )}
      />
      <ThingAbilitiesDrawer thing={abilitiesOf} onClose={() => setAbilitiesOf(null)} />
      <ThingTokenModal
        thing={tokenOf}
        onClose={() => {
          setTokenOf(null);
          // The device may have sent its first message meanwhile: its presence changed.
          void queryClient.invalidateQueries({ queryKey: keys.things.things.lists() });
        }}
      />
      <ThingImportModal open={importOpen} onClose={() => setImportOpen(false)} />
    </>
  );
}
