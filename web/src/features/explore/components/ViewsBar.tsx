import { DeleteOutlined, EditOutlined, SaveOutlined } from '@ant-design/icons';
import { type ExploreState, type ExploreView, MAX_EXPLORE_NAME } from '@kilowatch/contract';
import { Alert, App, Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateExploreView,
  useDeleteExploreView,
  useExploreViews,
  useUpdateExploreView,
} from '../../../api/explore.ts';
import { sameState } from '../lib/state.ts';

type Naming = { kind: 'save' } | { kind: 'rename'; view: ExploreView } | null;

/**
 * The user's saved views: open one, save what is on screen into the open view or as a new one,
 * rename, delete (after a confirmation). Server errors (a taken name) are shown by the data layer
 * in the user's language.
 */
export function ViewsBar({
  state,
  viewId,
  onOpen,
  extra,
}: {
  state: ExploreState;
  viewId: number | null;
  onOpen: (state: ExploreState, viewId: number | null) => void;
  extra: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const views = useExploreViews();
  const create = useCreateExploreView();
  const update = useUpdateExploreView();
  const remove = useDeleteExploreView();
  const [naming, setNaming] = useState<Naming>(null);
  const [form] = Form.useForm<{ name: string }>();
  const current = viewId === null ? undefined : views.data?.find((v) => v.id === viewId);
  const unknown = viewId !== null && views.isSuccess && !current;
  const dirty = current !== undefined && !sameState(current.state, state);
  const busy = create.isPending || update.isPending || remove.isPending;

  const openNaming = (next: Naming) => {
    form.setFieldsValue({ name: next?.kind === 'rename' ? next.view.name : '' });
    setNaming(next);
  };

  const onName = async ({ name }: { name: string }) => {
    if (naming?.kind === 'rename') {
      await update.mutateAsync({ id: naming.view.id, body: { name } });
      message.success(t('explore.views.renamed'));
    } else {
      const view = await create.mutateAsync({ name, state });
      onOpen(view.state, view.id);
      message.success(t('explore.views.saved'));
    }
    setNaming(null);
  };

  return (
    <Card size="small">
      <Space wrap size={[8, 8]}>
        <Select<number>
          aria-label={t('explore.views.label')}
          data-testid="explore-views"
          style={{ width: 240, maxWidth: '100%' }}
          placeholder={t('explore.views.placeholder')}
          value={current?.id}
          loading={views.isPending}
          notFoundContent={t('explore.views.none')}
          showSearch
          optionFilterProp="label"
          options={(views.data ?? []).map((v) => ({ value: v.id, label: v.name }))}
          onChange={(id) => {
            const view = views.data?.find((v) => v.id === id);
            if (view) onOpen(view.state, view.id);
          }}
        />
        {dirty && <Tag color="warning">{t('explore.views.unsaved')}</Tag>}
        <Button
          type={dirty ? 'primary' : 'default'}
          icon={<SaveOutlined />}
          disabled={busy || !state.panels.length}
          onClick={() => {
            if (!current) {
              openNaming({ kind: 'save' });
              return;
            }
            // The data layer shows a refusal; a success says so here.
            update.mutate(
              { id: current.id, body: { state } },
              { onSuccess: () => message.success(t('explore.views.saved')) },
            );
          }}
        >
          {t('explore.views.save')}
        </Button>
        <Button disabled={busy || !state.panels.length} onClick={() => openNaming({ kind: 'save' })}>
          {t('explore.views.saveAs')}
        </Button>
        <Button
          icon={<EditOutlined />}
          disabled={busy || !current}
          data-testid="explore-view-rename"
          onClick={() => current && openNaming({ kind: 'rename', view: current })}
        >
          {t('explore.views.rename')}
        </Button>
        <Popconfirm
          title={t('explore.views.deleteConfirm', { name: current?.name ?? '' })}
          okText={t('explore.views.deleteOk')}
          cancelText={t('explore.views.cancel')}
          okButtonProps={{ danger: true }}
          disabled={!current}
          onConfirm={async () => {
            if (!current) return;
            await remove.mutateAsync(current.id);
            onOpen(state, null);
            message.success(t('explore.views.deleted'));
          }}
        >
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={busy || !current}
            data-testid="explore-view-delete"
          >
            {t('explore.views.delete')}
          </Button>
        </Popconfirm>
        {extra}
      </Space>
      {unknown && <Alert type="info" showIcon style={{ marginTop: 8 }} title={t('explore.views.notFound')} />}
      <Modal
        open={naming !== null}
        title={naming?.kind === 'rename' ? t('explore.views.renameTitle') : t('explore.views.saveTitle')}
        okText={naming?.kind === 'rename' ? t('explore.views.rename') : t('explore.views.save')}
        cancelText={t('explore.views.cancel')}
        confirmLoading={busy}
        onOk={() => form.submit()}
        onCancel={() => setNaming(null)}
        forceRender
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(values) => {
            // A refusal (a taken name) is already shown by the data layer; the dialog stays open.
            onName(values).catch(() => undefined);
          }}
        >
          <Form.Item
            name="name"
            label={t('explore.views.name')}
            rules={[
              { required: true, whitespace: true, message: t('explore.views.nameRequired') },
              { max: MAX_EXPLORE_NAME, message: t('explore.views.nameMax', { max: MAX_EXPLORE_NAME }) },
            ]}
          >
            <Input autoFocus maxLength={MAX_EXPLORE_NAME} data-testid="explore-view-name" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
