import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import {
  DEFAULT_DIAGRAM_THRESHOLDS,
  DIAGRAM_SYMBOLS,
  type DiagramGraph,
  type DiagramSymbol,
  type DiagramThresholds,
} from '@kilowatch/contract';
import {
  App,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Grid,
  InputNumber,
  List,
  Popover,
  Result,
  Segmented,
  Space,
  Tooltip,
} from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  useCreateDiagram,
  useDeleteDiagram,
  useDiagram,
  useDiagrams,
  useUpdateDiagram,
} from '../../../api/diagrams.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { isAdmin, isGranted, useSession } from '../../../lib/session.ts';
import { useDiagramLive } from '../hooks/useDiagramLive.ts';
import { useUnsavedChanges } from '../hooks/useUnsavedChanges.ts';
import type { NodeData } from '../lib/cells.ts';
import { valueLines } from '../lib/viewport.ts';
import { DetailPanel } from './DetailPanel.tsx';
import { DiagramCanvas, type DiagramCanvasHandle } from './DiagramCanvas.tsx';
import { NameDialog } from './NameDialog.tsx';
import { PropertiesPanel } from './PropertiesPanel.tsx';

/** The screen's route: its grant lets a non-admin edit diagrams (docs/permissions.md). */
const DIAGRAM_PATH = '/electricDiagram/index';

type Mode = 'view' | 'edit';

/**
 * /electricDiagram/index (电气一次图): the plant's single-line diagrams. Monitoring shows live
 * values, breaker states, energised sections, alarms, branch loss and imbalance; editing draws
 * symbols and wires with undo, snaplines and export (docs/electric-diagram.md).
 */
export function DiagramScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  const canEdit = isAdmin(roles) || isGranted(grants, DIAGRAM_PATH);
  // Below md the list goes above the diagram, which takes the whole width.
  const narrow = !Grid.useBreakpoint().md;

  const list = useDiagrams();
  const selectedId = Number(params.get('diagram')) || (list.data?.[0]?.id ?? null);
  const diagram = useDiagram(selectedId);
  const create = useCreateDiagram();
  const update = useUpdateDiagram();
  const remove = useDeleteDiagram();
  const confirmDelete = useConfirmDelete();

  const [mode, setMode] = useState<Mode>('view');
  const [naming, setNaming] = useState<{ id: number | null; name: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const [history, setHistory] = useState({ canUndo: false, canRedo: false, dirty: false });
  const [thresholds, setThresholds] = useState<DiagramThresholds>(DEFAULT_DIAGRAM_THRESHOLDS);
  const canvas = useRef<DiagramCanvasHandle>(null);
  // What the panels read: the saved graph, or the editor's while editing (refreshed on each change).
  const [working, setWorking] = useState<DiagramGraph | null>(null);

  const saved = diagram.data?.graph;
  useEffect(() => {
    if (saved) setThresholds(saved.thresholds);
    setWorking(null);
    setSelected(null);
    setOpened(null);
  }, [saved]);
  const editing = mode === 'edit' && canEdit;
  const unsaved = useUnsavedChanges(editing && history.dirty);
  const shown = working ?? saved;
  const live = useDiagramLive(saved, !editing && saved !== undefined);

  const valueText = useCallback(
    (nodeId: string) => {
      const node = saved?.nodes.find((n) => n.id === nodeId);
      const view = live.view?.nodes.get(nodeId);
      if (!node) return '';
      const abilities = node.binding ? (live.abilities.get(node.binding.thingId) ?? []) : [];
      const lines = valueLines(node, abilities, live.latest);
      if (view?.loss) {
        const pct = view.loss.lossPct === null ? '—' : `${view.loss.lossPct.toFixed(2)}%`;
        lines.push(`${t('diagram.loss')} ${view.loss.lossKw.toFixed(1)} kW · ${pct}`);
      }
      for (const [quantity, value] of Object.entries(view?.imbalance ?? {})) {
        if (value) lines.push(`${t(`diagram.imbalanceShort.${quantity}`)} ${value.pct.toFixed(2)}%`);
      }
      return lines.join('\n');
    },
    [saved, live, t],
  );

  const select = async (id: number) => {
    if (!(await unsaved.confirmDiscard())) return;
    setMode('view');
    unsaved.pass(() => setParams({ diagram: String(id) }));
  };

  const save = async () => {
    if (!selectedId || !canvas.current) return;
    await update.mutateAsync({ id: selectedId, body: { graph: canvas.current.current(thresholds) } });
    message.success(t('diagram.saved'));
  };

  const refresh = () => setWorking(canvas.current?.current(thresholds) ?? null);
  const selectedNode = editing && selected ? shown?.nodes.find((n) => n.id === selected) : undefined;
  const openedNode = !editing && opened ? saved?.nodes.find((n) => n.id === opened) : undefined;
  const fileName = diagram.data?.name ?? 'diagram';

  const palette = DIAGRAM_SYMBOLS.map((symbol: DiagramSymbol) => (
    <Button
      key={symbol}
      size="small"
      onClick={() => {
        canvas.current?.addSymbol(symbol, t(`diagram.symbol.${symbol}`));
        refresh();
      }}
      data-testid={`diagram-add-${symbol}`}
    >
      {t(`diagram.symbol.${symbol}`)}
    </Button>
  ));

  return (
    <Flex gap={12} vertical={narrow} style={{ height: 'calc(100vh - 150px)', minHeight: 520 }}>
      <Card
        size="small"
        title={t('diagram.list')}
        style={
          narrow
            ? { flex: 'none', maxHeight: 150, overflow: 'auto' }
            : { width: 240, flex: 'none', overflow: 'auto' }
        }
        extra={
          canEdit && (
            <Button
              size="small"
              type="primary"
              onClick={() => setNaming({ id: null, name: '' })}
              data-testid="diagram-new"
            >
              {t('diagram.new')}
            </Button>
          )
        }
      >
        <List
          size="small"
          loading={list.isLoading}
          dataSource={list.data ?? []}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagram.empty')} />,
          }}
          renderItem={(d) => (
            <List.Item
              onClick={() => select(d.id)}
              style={{
                cursor: 'pointer',
                background: d.id === selectedId ? '#e6f4ff' : undefined,
                paddingInline: 8,
              }}
              data-testid={`diagram-item-${d.id}`}
              actions={
                canEdit
                  ? [
                      <Button
                        key="rename"
                        type="text"
                        size="small"
                        icon={<EditOutlined />}
                        title={t('diagram.rename')}
                        aria-label={t('diagram.rename')}
                        onClick={(e) => {
                          e.stopPropagation();
                          setNaming({ id: d.id, name: d.name });
                        }}
                      />,
                      <Button
                        key="delete"
                        type="text"
                        danger
                        size="small"
                        onClick={(e) => {
                          e.stopPropagation();
                          confirmDelete({
                            content: t('diagram.deleteConfirm', { name: d.name }),
                            onDelete: async () => {
                              await remove.mutateAsync(d.id);
                              if (d.id === selectedId) setParams({});
                            },
                          });
                        }}
                        data-testid={`diagram-delete-${d.id}`}
                        icon={<DeleteOutlined />}
                        title={t('diagram.delete')}
                        aria-label={t('diagram.delete')}
                      />,
                    ]
                  : []
              }
            >
              {d.name}
            </List.Item>
          )}
        />
      </Card>

      <Card
        size="small"
        style={{
          flex: 1,
          minWidth: 0,
          minHeight: narrow ? 480 : 0,
          display: 'flex',
          flexDirection: 'column',
        }}
        styles={{ body: { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 8 } }}
        title={diagram.data?.name ?? t('route.electricDiagram')}
        extra={
          diagram.data && (
            <Space wrap>
              {canEdit && (
                <Segmented
                  size="small"
                  value={mode}
                  onChange={async (m) => {
                    if (m === 'view' && !(await unsaved.confirmDiscard())) return;
                    if (m === 'view') setWorking(null);
                    setMode(m as Mode);
                  }}
                  options={[
                    { value: 'view', label: t('diagram.monitor') },
                    { value: 'edit', label: t('diagram.edit') },
                  ]}
                  data-testid="diagram-mode"
                />
              )}
              <Button
                size="small"
                onClick={() => canvas.current?.exportSvg(fileName)}
                data-testid="diagram-export-svg"
              >
                SVG
              </Button>
              <Button size="small" onClick={() => canvas.current?.exportPng(fileName)}>
                PNG
              </Button>
            </Space>
          )
        }
      >
        {selectedId === null ? (
          <Result
            status="info"
            title={t('diagram.none')}
            subTitle={canEdit ? t('diagram.noneHelp') : undefined}
          />
        ) : diagram.isError ? (
          <Result status="error" title={t('diagram.loadFailed')} />
        ) : (
          <>
            {editing && (
              <Flex wrap gap={4} align="center" data-testid="diagram-toolbar">
                {palette}
                <span style={{ width: 12 }} />
                <Tooltip title={t('diagram.connectHelp')}>
                  <Button
                    size="small"
                    onClick={() => {
                      if (!canvas.current?.connectSelected()) message.info(t('diagram.connectHelp'));
                      refresh();
                    }}
                    data-testid="diagram-connect"
                  >
                    {t('diagram.connect')}
                  </Button>
                </Tooltip>
                <Button
                  size="small"
                  danger
                  onClick={() => {
                    canvas.current?.removeSelected();
                    refresh();
                  }}
                >
                  {t('diagram.remove')}
                </Button>
                <Button
                  size="small"
                  disabled={!history.canUndo}
                  onClick={() => canvas.current?.undo()}
                  data-testid="diagram-undo"
                >
                  {t('diagram.undo')}
                </Button>
                <Button size="small" disabled={!history.canRedo} onClick={() => canvas.current?.redo()}>
                  {t('diagram.redo')}
                </Button>
                <Popover
                  trigger="click"
                  content={
                    <Form layout="vertical" size="small" style={{ width: 200 }}>
                      <Form.Item label={t('diagram.lossThreshold')}>
                        <InputNumber
                          min={0}
                          max={100}
                          step={0.5}
                          suffix="%"
                          value={thresholds.lossPct}
                          onChange={(v) => v !== null && setThresholds({ ...thresholds, lossPct: v })}
                        />
                      </Form.Item>
                      <Form.Item label={t('diagram.imbalanceThreshold')}>
                        <InputNumber
                          min={0}
                          max={100}
                          step={0.5}
                          suffix="%"
                          value={thresholds.imbalancePct}
                          onChange={(v) => v !== null && setThresholds({ ...thresholds, imbalancePct: v })}
                        />
                      </Form.Item>
                    </Form>
                  }
                >
                  <Button size="small">{t('diagram.thresholds')}</Button>
                </Popover>
                <Button
                  size="small"
                  type="primary"
                  loading={update.isPending}
                  onClick={() => void save()}
                  data-testid="diagram-save"
                >
                  {t('diagram.save')}
                </Button>
              </Flex>
            )}
            <Flex gap={8} style={{ flex: 1, minHeight: 0 }}>
              <div style={{ flex: 1, minWidth: 0, border: '1px solid #f0f0f0' }}>
                {saved && (
                  <DiagramCanvas
                    ref={canvas}
                    graph={saved}
                    editing={editing}
                    compact={narrow}
                    view={live.view}
                    valueText={valueText}
                    onSelect={(id) => {
                      setSelected(id);
                      refresh();
                    }}
                    onOpen={setOpened}
                    onHistory={(h) => {
                      setHistory(h);
                      if (editing) refresh();
                    }}
                  />
                )}
              </div>
              {(selectedNode || openedNode) && (
                <div style={{ width: 300, flex: 'none', overflow: 'auto' }}>
                  {selectedNode && (
                    <PropertiesPanel
                      nodeId={selectedNode.id}
                      data={{
                        symbol: selectedNode.symbol,
                        label: selectedNode.label,
                        binding: selectedNode.binding,
                      }}
                      width={selectedNode.width ?? 0}
                      onChange={(data: NodeData, width?: number) => {
                        canvas.current?.updateNode(selectedNode.id, data, width);
                        refresh();
                      }}
                    />
                  )}
                  {openedNode && saved && (
                    <DetailPanel
                      graph={saved}
                      node={openedNode}
                      view={live.view?.nodes.get(openedNode.id)}
                      latest={live.latest}
                      abilities={live.abilities}
                    />
                  )}
                </div>
              )}
            </Flex>
          </>
        )}
      </Card>

      {naming && (
        <NameDialog
          initial={naming.name}
          title={naming.id === null ? t('diagram.new') : t('diagram.rename')}
          onCancel={() => setNaming(null)}
          onSubmit={async (name) => {
            if (naming.id === null) {
              const made = await create.mutateAsync({ name });
              setParams({ diagram: String(made.id) });
              setMode('edit');
            } else {
              await update.mutateAsync({ id: naming.id, body: { name } });
            }
            setNaming(null);
          }}
        />
      )}
    </Flex>
  );
}
