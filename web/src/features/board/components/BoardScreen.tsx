import { DeleteOutlined, EditOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  BOARD_CHART_TYPES,
  BOARD_MAX_WEIGHT,
  BOARD_MIN_WEIGHT,
  type BoardChartType,
  type BoardComponent,
  type BoardPage,
} from '@kilowatch/contract';
import { App, Button, Card, Empty, InputNumber, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useBoardComponents,
  useBoardPages,
  useBoardPageWeight,
  useCreateBoardComponent,
  useCreateBoardPage,
  useDeleteBoardComponent,
  useDeleteBoardPage,
  usePatchBoardComponent,
  usePatchBoardPage,
  useSaveBoardLayouts,
} from '../../../api/board.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { useComponentEditor } from '../../../components/report-grid/index.ts';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { isAdmin, isGranted, useSession } from '../../../lib/session.ts';
import { BoardCarousel } from './BoardCarousel.tsx';
import { PageDialog } from './PageDialog.tsx';
import { PageGrid } from './PageGrid.tsx';

/** The board's route: its grant lets a non-admin change pages (docs/permissions.md). */
const BOARD_PATH = '/workshopBoard';

/**
 * workshopBoard (spec §2): the pages of the rotation (weight, interval, share, shown or not) and
 * the selected page's grid editor; `?play=1` plays the rotation on the whole screen, so a TV's
 * browser opens that address and shows the board (docs/board.md).
 */
export function BoardScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirmDelete = useConfirmDelete();
  const [params, update] = useSearchPatch();
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  const canEdit = isAdmin(roles) || isGranted(grants, BOARD_PATH);
  const pages = useBoardPages();
  const createPage = useCreateBoardPage();
  const patchPage = usePatchBoardPage();
  const setWeight = useBoardPageWeight();
  const removePage = useDeleteBoardPage();
  const [editingPage, setEditingPage] = useState<BoardPage | 'new' | null>(null);
  const list = pages.data ?? [];
  const selectedId = Number(params.get('page')) || list[0]?.id || null;
  const selected = list.find((p) => p.id === selectedId) ?? null;
  const playing = params.get('play') === '1';

  if (playing) return <BoardCarousel onExit={() => update({ play: null })} />;

  const columns = [
    {
      title: t('board.page.name'),
      dataIndex: 'name',
      render: (name: string, p: BoardPage) => (
        <Typography.Link onClick={() => update({ page: String(p.id) })} data-testid={`board-page-${p.id}`}>
          {name}
        </Typography.Link>
      ),
    },
    {
      title: t('board.page.region'),
      dataIndex: 'regionName',
      render: (name: string, p: BoardPage) => (
        <Space size={4}>
          {name}
          {p.successor && <Tag>{t('board.page.withSub')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('board.page.interval'),
      dataIndex: 'interval',
      render: (s: number) => t('board.secondsValue', { value: s }),
    },
    {
      title: t('board.page.weight'),
      dataIndex: 'weight',
      render: (weight: number, p: BoardPage) =>
        canEdit ? (
          <InputNumber
            size="small"
            min={BOARD_MIN_WEIGHT}
            max={BOARD_MAX_WEIGHT}
            precision={0}
            value={weight}
            aria-label={t('board.page.weightOf', { name: p.name })}
            data-testid={`board-weight-${p.id}`}
            onChange={(v) => {
              if (typeof v === 'number' && v !== weight) setWeight.mutate({ id: p.id, weight: v });
            }}
          />
        ) : (
          weight
        ),
    },
    {
      title: t('board.page.share'),
      dataIndex: 'share',
      render: (share: number) => `${Math.round(share * 100)}%`,
    },
    {
      title: t('board.page.enabled'),
      dataIndex: 'enabled',
      render: (enabled: boolean, p: BoardPage) => (
        <Switch
          size="small"
          checked={enabled}
          disabled={!canEdit}
          aria-label={t('board.page.enabledOf', { name: p.name })}
          onChange={(on) => patchPage.mutate({ id: p.id, patch: { enabled: on } })}
        />
      ),
    },
    { title: t('board.page.components'), dataIndex: 'components' },
    ...(canEdit
      ? [
          {
            title: t('board.actions'),
            key: 'actions',
            render: (_: unknown, p: BoardPage) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('board.page.editOf', { name: p.name })}
                  onClick={() => setEditingPage(p)}
                />
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('board.page.deleteOf', { name: p.name })}
                  onClick={() =>
                    confirmDelete({
                      content: t('board.page.deleteText', { name: p.name, components: p.components }),
                      onDelete: () => removePage.mutateAsync(p.id),
                    })
                  }
                />
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Card
        size="small"
        title={t('board.title')}
        extra={
          <Space>
            {canEdit && (
              <Button icon={<PlusOutlined />} onClick={() => setEditingPage('new')}>
                {t('board.page.add')}
              </Button>
            )}
            <Button
              type="primary"
              icon={<PlayCircleOutlined />}
              disabled={!list.some((p) => p.enabled)}
              onClick={() => {
                update({ play: '1' });
                // Full screen needs this click; a refusal leaves the board filling the window.
                void document.documentElement.requestFullscreen?.().catch(() => undefined);
              }}
            >
              {t('board.play')}
            </Button>
          </Space>
        }
      >
        {list.length === 0 && !pages.isPending ? (
          <Empty description={t('board.noPages')} data-testid="board-no-pages">
            {canEdit && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditingPage('new')}>
                {t('board.page.add')}
              </Button>
            )}
          </Empty>
        ) : (
          <>
            <Table<BoardPage>
              rowKey="id"
              size="small"
              loading={pages.isPending}
              dataSource={list}
              columns={columns}
              pagination={false}
              rowClassName={(p) => (p.id === selected?.id ? 'ant-table-row-selected' : '')}
            />
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
              {t('board.rule')}
            </Typography.Text>
          </>
        )}
      </Card>
      {selected && <PageEditor key={selected.id} page={selected} canEdit={canEdit} />}
      <PageDialog
        open={editingPage !== null}
        page={editingPage === 'new' ? null : editingPage}
        saving={createPage.isPending || patchPage.isPending}
        onCancel={() => setEditingPage(null)}
        onSave={async (input) => {
          if (editingPage === 'new') {
            const made = await createPage.mutateAsync(input);
            update({ page: String(made.id) });
            message.success(t('board.created'));
          } else if (editingPage) {
            await patchPage.mutateAsync({ id: editingPage.id, patch: input });
            message.success(t('board.saved'));
          }
          setEditingPage(null);
        }}
      />
    </Space>
  );
}

/** One page's grid: add, edit, drag, resize and remove its components. */
function PageEditor({ page, canEdit }: { page: BoardPage; canEdit: boolean }) {
  const { t } = useTranslation();
  const components = useBoardComponents(page.id);
  const create = useCreateBoardComponent();
  const patch = usePatchBoardComponent();
  const layouts = useSaveBoardLayouts();
  const remove = useDeleteBoardComponent();
  const editor = useComponentEditor<BoardComponent, BoardChartType>({
    create: (input) => create.mutateAsync({ pageId: page.id, input }),
    patch: (c, input) => patch.mutateAsync({ pageId: page.id, componentId: c.id, patch: input }),
    remove: (c) => remove.mutateAsync({ pageId: page.id, componentId: c.id }),
    saving: create.isPending || patch.isPending,
    created: t('board.created'),
    saved: t('board.saved'),
    chartTypes: BOARD_CHART_TYPES,
    defaultRegionId: page.regionId,
  });
  const [now] = useState(() => Date.now());
  const list = components.data ?? [];

  return (
    <Card
      size="small"
      title={
        <Space>
          <span data-testid="board-editor-title">{page.name}</span>
          <Typography.Text type="secondary">{page.regionName}</Typography.Text>
        </Space>
      }
      extra={
        canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={editor.add}>
            {t('reportGrid.component.add')}
          </Button>
        )
      }
    >
      {list.length === 0 ? (
        <Empty
          description={components.isPending ? t('board.loading') : t('board.noComponents')}
          data-testid="board-no-components"
        />
      ) : (
        <PageGrid
          page={page}
          components={list}
          writable={canEdit}
          time={now}
          onLayout={(changes) => layouts.mutate({ pageId: page.id, layouts: changes })}
          onEdit={editor.edit}
          onCompare={(c, yoy) => patch.mutate({ pageId: page.id, componentId: c.id, patch: { yoy } })}
          onDelete={editor.remove}
        />
      )}
      {editor.dialog}
    </Card>
  );
}
