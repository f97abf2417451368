import {
  DeleteOutlined,
  EditOutlined,
  NodeIndexOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import type { AlarmRule } from '@kilowatch/contract';
import { Button, Empty, Input, Result, Select, Space, Switch, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAlarmRules,
  useAlarmTemplates,
  useDeleteAlarmRule,
  useSetAlarmRuleState,
} from '../../../api/alarms.ts';
import { useCategoryOptions } from '../../../api/things.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { IconAction } from '../../../components/crud/IconAction.tsx';
import { notify } from '../../../lib/notify.ts';
import { useAlarmAbilities } from '../abilities.ts';
import { AbilityName, ConditionText } from './AbilityName.tsx';
import { type Applied, ApplyMonitorsDialog } from './ApplyMonitorsDialog.tsx';
import { RuleDialog } from './RuleDialog.tsx';
import { RuleNextSteps } from './RuleNextSteps.tsx';
import { SeverityTag } from './tags.tsx';

export function RulesTab() {
  const { t } = useTranslation();
  const { canEditRules } = useAlarmAbilities();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [templateId, setTemplateId] = useState<number | undefined>();
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  const rules = useAlarmRules({ ...page, name: name || undefined, templateId });
  const templates = useAlarmTemplates({ page: 1, pageSize: 1000 });
  const categories = useCategoryOptions();
  const setState = useSetAlarmRuleState();
  const remove = useDeleteAlarmRule();
  const [editing, setEditing] = useState<{ rule: AlarmRule | null } | null>(null);
  const [applying, setApplying] = useState<Applied | null>(null);
  const [created, setCreated] = useState<AlarmRule | null>(null);
  const categoryName = (id: number | null) =>
    id === null
      ? t('alarms.rule.anyCategory')
      : (categories.data?.find((c) => c.id === id)?.name ?? `#${id}`);

  const askDelete = useConfirmDelete();
  const confirmDelete = (rule: AlarmRule) =>
    askDelete({
      content: t('alarms.rule.deleteConfirm', { name: rule.name }),
      onDelete: () => remove.mutateAsync(rule.id),
    });

  const columns: TableColumnsType<AlarmRule> = [
    { title: t('alarms.rule.name'), dataIndex: 'name' },
    { title: t('alarms.rule.category'), dataIndex: 'categoryId', render: categoryName },
    {
      title: t('alarms.rule.ability'),
      dataIndex: 'ability',
      render: (ability: string, r) => <AbilityName categoryId={r.categoryId} ability={ability} />,
    },
    {
      title: t('alarms.rule.condition'),
      key: 'condition',
      render: (_, r) => (
        <ConditionText categoryId={r.categoryId} ability={r.ability} condition={r.condition} />
      ),
    },
    {
      title: t('alarms.history.severity'),
      dataIndex: 'severity',
      render: (s) => <SeverityTag severity={s} />,
    },
    { title: t('alarms.rule.template'), dataIndex: 'templateName', render: (v: string) => v || '—' },
    { title: t('alarms.rule.things'), dataIndex: 'things' },
    {
      title: t('alarms.rule.enabled'),
      dataIndex: 'enabled',
      // Beside the fixed actions: scrolled under them at 1366 px it could not be switched.
      fixed: 'right',
      align: 'center',
      render: (enabled: boolean, r) => (
        <Switch
          checked={enabled}
          disabled={!canEditRules}
          loading={setState.isPending && setState.variables?.id === r.id}
          aria-label={t('alarms.rule.enableOf', { name: r.name })}
          onChange={(next) =>
            setState.mutate(
              { id: r.id, enabled: next },
              {
                onSuccess: () =>
                  notify.success(t(next ? 'alarms.rule.enabledToast' : 'alarms.rule.disabledToast')),
              },
            )
          }
          data-testid="rule-enabled"
        />
      ),
    },
    ...(canEditRules
      ? [
          {
            title: t('crud.actions'),
            key: 'actions',
            fixed: 'right' as const,
            render: (_: unknown, r: AlarmRule) => (
              <Space size={4} wrap={false}>
                {/* Icons named on hover and to screen readers: the fixed columns stay narrow in
                    every language (in Spanish the worded actions hid the watched devices at 1366). */}
                <IconAction
                  label={t('crud.edit')}
                  icon={<EditOutlined />}
                  onClick={() => setEditing({ rule: r })}
                />
                <IconAction
                  label={t('alarms.monitor.apply')}
                  icon={<NodeIndexOutlined />}
                  onClick={() =>
                    setApplying({ type: 'rule', id: r.id, name: r.name, categoryId: r.categoryId })
                  }
                  data-testid="rule-apply"
                />
                <IconAction
                  label={t('crud.delete')}
                  icon={<DeleteOutlined />}
                  danger
                  onClick={() => confirmDelete(r)}
                />
              </Space>
            ),
          },
        ]
      : []),
  ];

  if (rules.isError && !rules.data) {
    return (
      <Result
        status="error"
        title={t('crud.loadFailed')}
        subTitle={rules.error.message}
        extra={<Button onClick={() => rules.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={(v) => {
            setName(v.trim());
            setPage((p) => ({ ...p, page: 1 }));
          }}
          placeholder={t('alarms.rule.searchPlaceholder')}
          style={{ width: 240 }}
          data-testid="rule-search"
        />
        <Select
          allowClear
          style={{ width: 200 }}
          placeholder={t('alarms.rule.templateFilter')}
          aria-label={t('alarms.rule.templateFilter')}
          value={templateId}
          onChange={(v) => {
            setTemplateId(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={(templates.data?.list ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
        />
        {canEditRules && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ rule: null })}
            data-testid="rule-create"
          >
            {t('alarms.rule.create')}
          </Button>
        )}
        <Button
          icon={<ReloadOutlined />}
          aria-label={t('alarms.history.refresh')}
          onClick={() => rules.refetch()}
        />
      </Space>
      <Table<AlarmRule>
        rowKey="id"
        loading={rules.isFetching}
        dataSource={rules.data?.list ?? []}
        columns={columns}
        // Cells wrap before the table scrolls: no column starts under the fixed one at 1366 px.
        scroll={{ x: true }}
        tableLayout="auto"
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.rule.empty')} />,
        }}
        pagination={{
          current: page.page,
          pageSize: page.pageSize,
          total: rules.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('crud.total', { total }),
          onChange: (p, pageSize) => setPage({ page: pageSize === page.pageSize ? p : 1, pageSize }),
        }}
      />
      <RuleDialog
        open={editing !== null}
        rule={editing?.rule ?? null}
        onClose={() => setEditing(null)}
        onCreated={setCreated}
      />
      {created && <RuleNextSteps rule={created} onClose={() => setCreated(null)} />}
      <ApplyMonitorsDialog applied={applying} onClose={() => setApplying(null)} />
    </>
  );
}
