import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FilterGroup, FilterGroupInput, RegionNode } from '@kilowatch/contract';
import { Button, Form, Input, Modal, Popconfirm, Space, Table, TreeSelect } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionTree } from '../../../../api/regions.ts';
import { useDeleteFilterGroup, useFilterGroups, useSaveFilterGroup } from '../../../../api/statistics.ts';
import { validValues } from '../../../../lib/form.ts';
import { notify } from '../../../../lib/notify.ts';

interface MemberOption {
  value: string;
  title: string;
  children?: MemberOption[];
}

/** Regions and their things, both selectable: a filter is either. */
const memberOptions = (nodes: readonly RegionNode[]): MemberOption[] =>
  nodes.map((n) =>
    n.resourceType === 'thing'
      ? { value: `thing:${n.thingId}`, title: n.name }
      : { value: `region:${n.id}`, title: n.name, children: memberOptions(n.children) },
  );

interface FormValues {
  name: string;
  description?: string;
  filters: { member?: string; name?: string }[];
}

const toInput = (values: FormValues): FilterGroupInput => ({
  name: values.name,
  description: values.description ?? '',
  filters: values.filters
    .filter((f) => f.member)
    .map((f) => {
      const [type, id] = (f.member as string).split(':');
      return { resourceType: type as 'thing' | 'region', resourceId: Number(id), name: f.name ?? '' };
    }),
});

/** Filter groups: named sets of things or regions to compare (list, create, edit, delete). */
export function FilterGroupsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const groups = useFilterGroups();
  const remove = useDeleteFilterGroup();
  const [editing, setEditing] = useState<FilterGroup | 'new' | null>(null);

  return (
    <Modal
      open={open}
      title={t('analysis.groups.title')}
      onCancel={onClose}
      footer={null}
      width={720}
      destroyOnHidden
    >
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => setEditing('new')}
        style={{ marginBottom: 12 }}
      >
        {t('crud.create')}
      </Button>
      <Table<FilterGroup>
        size="small"
        rowKey="id"
        loading={groups.isPending}
        dataSource={groups.data ?? []}
        pagination={false}
        locale={{ emptyText: t('analysis.noGroups') }}
        columns={[
          { title: t('analysis.groups.name'), dataIndex: 'name' },
          { title: t('analysis.groups.description'), dataIndex: 'description', ellipsis: true },
          {
            title: t('analysis.groups.filters'),
            key: 'filters',
            render: (_, g) => g.filters.map((f) => f.name || f.resourceName).join('、'),
            ellipsis: true,
          },
          {
            title: t('crud.actions'),
            key: 'actions',
            width: 140,
            render: (_, g) => (
              <Space>
                <Button type="link" size="small" onClick={() => setEditing(g)}>
                  {t('crud.edit')}
                </Button>
                <Popconfirm
                  title={t('crud.deleteTitle')}
                  description={t('crud.deleteConfirm', { name: g.name })}
                  onConfirm={async () => {
                    await remove.mutateAsync(g.id);
                    notify.success(t('toast.deleted'));
                  }}
                >
                  <Button type="link" size="small" danger>
                    {t('crud.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing !== null && (
        <GroupEditor group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Modal>
  );
}

function GroupEditor({ group, onClose }: { group: FilterGroup | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const tree = useRegionTree({ withThings: true });
  const save = useSaveFilterGroup();

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    await save.mutateAsync({ id: group?.id ?? null, body: toInput(values) });
    notify.success(t(group ? 'toast.updated' : 'toast.created'));
    onClose();
  };

  return (
    <Modal
      open
      title={group ? t('crud.editTitle') : t('crud.createTitle')}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={save.isPending}
      width={640}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{
          name: group?.name ?? '',
          description: group?.description ?? '',
          filters: group?.filters.map((f) => ({
            member: `${f.resourceType}:${f.resourceId}`,
            name: f.name,
          })) ?? [{}],
        }}
      >
        <Form.Item
          name="name"
          label={t('analysis.groups.name')}
          rules={[
            { required: true, whitespace: true, message: t('analysis.groups.nameRequired') },
            { max: 64 },
          ]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="description" label={t('analysis.groups.description')} rules={[{ max: 255 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.List name="filters">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item
                    name={[field.name, 'member']}
                    rules={[{ required: true, message: t('analysis.groups.memberRequired') }]}
                  >
                    <TreeSelect
                      style={{ width: 280 }}
                      placeholder={t('analysis.groups.member')}
                      aria-label={t('analysis.groups.member')}
                      treeData={memberOptions(tree.data ?? [])}
                      treeDefaultExpandAll
                      showSearch
                      treeNodeFilterProp="title"
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'name']} rules={[{ max: 64 }]}>
                    <Input placeholder={t('analysis.groups.alias')} aria-label={t('analysis.groups.alias')} />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('crud.delete')}
                    onClick={() => remove(field.name)}
                  />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} block>
                {t('analysis.groups.addMember')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
