import type { Group, GroupInput } from '@kilowatch/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { createGroup, deleteGroup, getGroups, updateGroup } from '../../../api/system.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';

/** /sys_management/group: user groups. */
export function GroupsScreen() {
  const { t } = useTranslation();
  const nameLabel = t('system.group.fields.name');
  return (
    <CrudPage<Group, GroupInput>
      queryKey={keys.groups.all}
      title={t('system.group.title')}
      fetchPage={(p) => getGroups({ page: p.page, pageSize: p.pageSize, name: p.name || undefined })}
      describeRow={(g) => g.name}
      columns={[
        { title: nameLabel, dataIndex: 'name' },
        { title: t('system.common.description'), dataIndex: 'description', ellipsis: true },
        { title: t('system.common.userCount'), dataIndex: 'userCount', width: 100 },
      ]}
      toFormValues={(g) => ({ name: g.name, description: g.description })}
      create={(v) => createGroup({ name: v.name.trim(), description: v.description ?? '' })}
      update={(id, v) => updateGroup(id, { name: v.name.trim(), description: v.description ?? '' })}
      remove={(g) => deleteGroup(g.id)}
      renderForm={() => (
        <>
          <Form.Item
            name="name"
            label={nameLabel}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('system.common.required', { field: nameLabel }),
              },
              { max: 64, message: t('system.common.maxLength', { field: nameLabel, max: 64 }) },
            ]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="description"
            label={t('system.common.description')}
            rules={[
              {
                max: 500,
                message: t('system.common.maxLength', { field: t('system.common.description'), max: 500 }),
              },
            ]}
          >
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </>
      )}
    />
  );
}
