import type { Role, RoleInput } from '@kilowatch/contract';
import { Form, Input, Tag, Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { createRole, deleteRole, getRoles, updateRole, useResources } from '../../../api/system.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { GrantTree } from './GrantTree.tsx';

const CODE_PATTERN = /^[a-z][a-z0-9_-]{1,31}$/;

const toInput = (v: RoleInput): RoleInput => ({
  code: v.code.trim(),
  name: v.name.trim(),
  description: v.description ?? '',
  resourcePaths: v.resourcePaths ?? [],
});

/** /sys_management/role: roles and the console routes each grants. */
export function RolesScreen() {
  const { t } = useTranslation();
  const resources = useResources();
  const titles = useMemo(
    () => new Map((resources.data ?? []).map((r) => [r.path, t(r.titleKey)])),
    [resources.data, t],
  );
  const codeLabel = t('system.role.fields.code');
  const nameLabel = t('system.role.fields.name');

  return (
    <CrudPage<Role, RoleInput>
      queryKey={keys.roles.all}
      title={t('system.role.title')}
      dialogWidth={640}
      fetchPage={(p) => getRoles({ page: p.page, pageSize: p.pageSize, name: p.name || undefined })}
      describeRow={(r) => r.name}
      columns={[
        { title: codeLabel, dataIndex: 'code' },
        { title: nameLabel, dataIndex: 'name' },
        { title: t('system.common.description'), dataIndex: 'description', ellipsis: true },
        {
          title: t('system.role.fields.resources'),
          dataIndex: 'resourcePaths',
          render: (paths: string[]) => (
            <Tooltip title={paths.map((p) => titles.get(p) ?? p).join('、')}>
              <Tag color={paths.length ? 'blue' : 'default'}>
                {t('system.role.grantCount', { count: paths.length })}
              </Tag>
            </Tooltip>
          ),
        },
        { title: t('system.common.userCount'), dataIndex: 'userCount', width: 100 },
      ]}
      toFormValues={(r) => ({
        code: r.code,
        name: r.name,
        description: r.description,
        resourcePaths: r.resourcePaths,
      })}
      create={(v) => createRole(toInput(v))}
      update={(id, v) => updateRole(id, toInput(v))}
      remove={(r) => deleteRole(r.id)}
      renderForm={() => (
        <>
          <Form.Item
            name="code"
            label={codeLabel}
            rules={[
              { required: true, message: t('system.common.required', { field: codeLabel }) },
              { pattern: CODE_PATTERN, message: t('system.role.codeRule') },
            ]}
          >
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
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
          <Form.Item name="description" label={t('system.common.description')}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
          <Form.Item
            name="resourcePaths"
            label={t('system.role.fields.resources')}
            extra={t('system.role.grantHint')}
            initialValue={[]}
          >
            <GrantTree />
          </Form.Item>
        </>
      )}
    />
  );
}
