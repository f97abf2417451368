import {
  type Cell,
  Export,
  Graph,
  History,
  Keyboard,
  MiniMap,
  type Node,
  Selection,
  Snapline,
} from '@antv/x6';
import type { DiagramGraph, DiagramSymbol, DiagramThresholds } from '@kilowatch/contract';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { EDGE_ATTRS, fromCells, type NodeData, newCellId, nodeCell, toCells } from '../lib/cells.ts';
import type { DiagramView } from '../lib/live-view.ts';
import { BLADES, COLOURS, registerSymbols } from '../lib/symbols.ts';
import { SYMBOL_SIZE } from '../lib/topology.ts';
import { detailAt, FIT_PADDING, MAX_SCALE, MIN_SCALE, openingView, ZOOM_STEP } from '../lib/viewport.ts';
import { DiagramControls } from './DiagramControls.tsx';

/** What the screen asks of the editor. */
export interface DiagramCanvasHandle {
  current(thresholds: DiagramThresholds): DiagramGraph;
  addSymbol(symbol: DiagramSymbol, label: string): void;
  /** Wires the two selected symbols together; false unless exactly two are selected. */
  connectSelected(): boolean;
  removeSelected(): void;
  undo(): void;
  redo(): void;
  updateNode(id: string, data: NodeData, width?: number): void;
  exportSvg(fileName: string): void;
  exportPng(fileName: string): void;
}

export interface DiagramCanvasProps {
  graph: DiagramGraph;
  editing: boolean;
  /** A phone's width: compact controls, no mini-map. */
  compact: boolean;
  /** What to draw on each symbol in monitoring (ignored while editing). */
  view: DiagramView | null;
  /** The value text beside each symbol. */
  valueText: (nodeId: string) => string;
  onSelect: (nodeId: string | null) => void;
  /** A symbol clicked while monitoring. */
  onOpen: (nodeId: string) => void;
  /** Undo/redo availability and unsaved changes. */
  onHistory: (state: { canUndo: boolean; canRedo: boolean; dirty: boolean }) => void;
}

/**
 * Alarmed symbols flash; the found one is ringed. Names and values are hidden by class when
 * zoomed out too far to read them (`data-detail`, viewport.ts): a fitted large diagram shows its
 * structure and colours instead of 3 px text.
 */
const CANVAS_CSS = [
  '@keyframes kw-alarm-flash{50%{stroke-opacity:0}}.kw-alarm{animation:kw-alarm-flash 1s step-end infinite}',
  '.kw-found{stroke-width:4}',
  '[data-detail=names] .kw-value,[data-detail=outline] .kw-value,[data-detail=outline] .kw-name{display:none}',
  // The mini-map draws the same nodes: its text would be specks.
  '[data-testid=diagram-minimap] text{display:none}',
].join('');

/** Opens a diagram fitted when that is readable, else at 100 % on its first section (viewport.ts). */
function open(graph: Graph, saved: DiagramGraph) {
  if (saved.nodes.length === 0) return;
  const area = graph.getGraphArea();
  const { width, height } = graph.container.getBoundingClientRect();
  const opening = openingView(saved, { width: width || area.width, height: height || area.height });
  if (opening.kind === 'fit') graph.zoomToFit({ padding: FIT_PADDING, maxScale: 1 });
  else {
    graph.zoomTo(opening.scale);
    graph.positionPoint(opening.point, '50%', FIT_PADDING);
  }
}

/** Grid step: symbols snap to it. */
const GRID = 10;

/** A wire's end on a symbol: anywhere along a busbar, else the given port. */
const endOf = (node: Node, port: 't' | 'b') =>
  node.getData<NodeData>().symbol === 'busbar'
    ? { cell: node.id, anchor: { name: 'orth' } }
    : { cell: node.id, port };

/** The editor: an X6 graph with snaplines, history, selection, keyboard and export plugins. */
export const DiagramCanvas = forwardRef<DiagramCanvasHandle, DiagramCanvasProps>(function DiagramCanvas(
  { graph: saved, editing, compact, view, valueText, onSelect, onOpen, onHistory },
  ref,
) {
  const container = useRef<HTMLDivElement>(null);
  const graphRef = useRef<Graph | null>(null);
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const callbacks = useRef({ onSelect, onOpen, onHistory });
  callbacks.current = { onSelect, onOpen, onHistory };
  const minimap = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  /** The symbol "find" went to, ringed until another is found. */
  const [found, setFound] = useState<string | null>(null);

  useEffect(() => {
    registerSymbols();
    const graph = new Graph({
      container: container.current!,
      autoResize: true,
      grid: { size: GRID, visible: true },
      background: { color: '#fff' },
      // Dragging the blank pans (the rubberband takes Shift+drag); Ctrl+wheel zooms, as the controls say.
      panning: { enabled: true, eventTypes: ['leftMouseDown', 'rightMouseDown'] },
      mousewheel: { enabled: true, modifiers: ['ctrl', 'meta'], minScale: MIN_SCALE, maxScale: MAX_SCALE },
      interacting: () =>
        editingRef.current ? true : { nodeMovable: false, edgeMovable: false, magnetConnectable: false },
      connecting: {
        snap: { radius: 20 },
        allowBlank: false,
        allowLoop: false,
        allowMulti: false,
        allowNode: true,
        highlight: true,
        connectionPoint: 'anchor',
        createEdge: () => graph.createEdge({ shape: 'edge', attrs: EDGE_ATTRS, zIndex: -1 }),
        validateConnection: ({ sourceCell, targetCell }) => sourceCell !== targetCell,
      },
    });
    graph.use(new Snapline({ enabled: true, sharp: true }));
    // Hovering shows ports (`ui` changes): not an edit, kept out of undo.
    graph.use(
      new History({
        enabled: true,
        beforeAddCommand: (_event, args) => !(args as { options?: { ui?: boolean } }).options?.ui,
      }),
    );
    graph.use(
      new Selection({
        enabled: true,
        multiple: true,
        rubberband: true,
        modifiers: ['shift'],
        multipleSelectionModifiers: ['ctrl', 'meta', 'shift'],
        showNodeSelectionBox: true,
        filter: () => editingRef.current,
      }),
    );
    graph.use(new Keyboard({ enabled: true }));
    graph.use(new Export());
    graph.use(new MiniMap({ container: minimap.current!, width: 220, height: 150, padding: 8 }));
    const scaled = () => {
      const { sx } = graph.scale();
      setScale(sx);
      container.current?.setAttribute('data-detail', detailAt(sx));
    };
    graph.on('scale', scaled);
    scaled();
    graph.bindKey(['ctrl+z', 'meta+z'], () => {
      graph.undo();
      return false;
    });
    graph.bindKey(['ctrl+shift+z', 'meta+shift+z', 'ctrl+y'], () => {
      graph.redo();
      return false;
    });
    graph.bindKey(['delete', 'backspace'], () => {
      if (editingRef.current) graph.removeCells(graph.getSelectedCells());
      return false;
    });

    const history = () =>
      callbacks.current.onHistory({
        canUndo: graph.canUndo(),
        canRedo: graph.canRedo(),
        dirty: graph.canUndo(),
      });
    graph.on('history:change', history);
    graph.on('selection:changed', ({ selected }: { selected: Cell[] }) => {
      const nodes = selected.filter((c) => c.isNode());
      callbacks.current.onSelect(nodes.length === 1 ? nodes[0]!.id : null);
    });
    graph.on('node:click', ({ node }: { node: Node }) => {
      if (!editingRef.current) callbacks.current.onOpen(node.id);
    });
    // Ports show while a symbol is hovered in the editor, so wires can be drawn from them.
    const ports = (node: Node, visible: boolean) => {
      for (const port of node.getPorts()) {
        node.setPortProp(
          port.id!,
          'attrs/circle/style/visibility',
          visible && editingRef.current ? 'visible' : 'hidden',
          { ui: true },
        );
      }
    };
    graph.on('node:mouseenter', ({ node }: { node: Node }) => ports(node, true));
    graph.on('node:mouseleave', ({ node }: { node: Node }) => ports(node, false));
    graphRef.current = graph;
    return () => {
      graph.dispose();
      graphRef.current = null;
    };
  }, []);

  // A new diagram (or a saved one reloaded) replaces the cells and starts a fresh history.
  useEffect(() => {
    const graph = graphRef.current;
    if (!graph) return;
    graph.disableHistory();
    graph.fromJSON(toCells(saved));
    graph.enableHistory();
    graph.cleanHistory();
    graph.cleanSelection();
    open(graph, saved);
    setFound(null);
    callbacks.current.onHistory({ canUndo: false, canRedo: false, dirty: false });
  }, [saved]);

  useEffect(() => {
    const graph = graphRef.current;
    if (!graph) return;
    if (!editing) graph.cleanSelection();
    container.current?.setAttribute('data-mode', editing ? 'edit' : 'view');
  }, [editing]);

  // Live state onto the symbols, outside the undo history: it is not an edit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `saved` replaced the cells, which are painted again
  useEffect(() => {
    const graph = graphRef.current;
    if (!graph) return;
    // Off the history while painting, so undo never steps through live values.
    const wasOn = graph.isHistoryEnabled();
    graph.disableHistory();
    for (const node of graph.getNodes()) {
      const data = node.getData<NodeData>();
      const v = editing ? undefined : view?.nodes.get(node.id);
      const colour = v?.energised ? COLOURS.live : COLOURS.dead;
      const warn = v !== undefined && (v.loss?.flagged || Object.values(v.imbalance).some((i) => i?.flagged));
      node.setAttrByPath('value/text', editing ? '' : valueText(node.id));
      node.setAttrByPath('value/fill', warn ? COLOURS.flagged : COLOURS.value);
      const ring = node.id === found ? COLOURS.found : v?.alarm ? COLOURS.alarm : 'none';
      node.setAttrByPath('halo/stroke', ring);
      node.setAttrByPath('halo/class', node.id === found ? 'kw-found' : v?.alarm ? 'kw-alarm' : '');
      if (data.symbol === 'busbar') node.setAttrByPath('body/fill', colour);
      else {
        for (const part of ['glyph', 'c1', 'c2', 'blade']) {
          if (node.getAttrByPath(part)) node.setAttrByPath(`${part}/stroke`, colour);
        }
      }
      if (data.symbol === 'breaker' || data.symbol === 'disconnector') {
        const state = v?.state ?? 'closed';
        node.setAttrByPath('blade/d', BLADES[data.symbol][state === 'open' ? 'open' : 'closed']);
        if (data.symbol === 'breaker') {
          const fill =
            state === 'open' ? COLOURS.open : state === 'unknown' ? COLOURS.unknown : COLOURS.closed;
          node.setAttrByPath('box/fill', fill);
          node.setAttrByPath('box/stroke', fill);
        }
        node.setAttrByPath('body/data-state', v?.state ?? '');
      }
    }
    for (const edge of graph.getEdges()) {
      edge.setAttrByPath('line/stroke', !editing && view?.edges.has(edge.id) ? COLOURS.live : COLOURS.dead);
    }
    if (wasOn) graph.enableHistory();
  }, [view, editing, valueText, saved, found]);

  useImperativeHandle(
    ref,
    () => ({
      current: (thresholds) => {
        const graph = graphRef.current!;
        return fromCells(graph.getNodes(), graph.getEdges(), thresholds);
      },
      addSymbol(symbol, label) {
        const graph = graphRef.current!;
        const size = SYMBOL_SIZE[symbol];
        const snap = (v: number) => Math.round(v / GRID) * GRID;
        const selected = graph.getSelectedCells().filter((c): c is Node => c.isNode());
        const parent = selected.length === 1 ? selected[0]! : undefined;
        let x: number;
        let y: number;
        if (parent) {
          // Drawn top-down: a symbol added with one selected goes below it, wired to it; under a
          // busbar, beside the symbols already hanging from it.
          const box = parent.getBBox();
          y = box.y + box.height + 40;
          if (parent.getData<NodeData>().symbol === 'busbar') {
            const below = graph
              .getNeighbors(parent)
              .filter((n) => n.isNode() && n.getBBox().center.y > box.center.y);
            x = box.x + 40 + below.length * 120;
          } else if (symbol === 'busbar') x = box.center.x - 60;
          else x = box.center.x - size.width / 2;
          // Room on the left for the label.
          x = Math.max(x, graph.getGraphArea().x + 80);
        } else {
          const area = graph.getGraphArea();
          const count = graph.getNodes().length;
          x = area.x + 80 + (count % 6) * 90;
          y = area.y + 60 + Math.floor(count / 6) * 110;
        }
        const node = graph.addNode(
          nodeCell({
            id: newCellId('n'),
            symbol,
            label,
            x: snap(x),
            y: snap(y),
            ...(symbol === 'busbar' ? { width: size.width } : {}),
          }),
        );
        if (parent) {
          graph.addEdge({
            id: newCellId('e'),
            shape: 'edge',
            source: endOf(parent, 'b'),
            target: endOf(node, 't'),
            attrs: EDGE_ATTRS,
            zIndex: -1,
          });
        }
        graph.cleanSelection();
        graph.select(node);
      },
      connectSelected() {
        const graph = graphRef.current!;
        const nodes = graph.getSelectedCells().filter((c): c is Node => c.isNode());
        if (nodes.length !== 2) return false;
        const [a, b] = [...nodes].sort((p, q) => p.getBBox().center.y - q.getBBox().center.y) as [Node, Node];
        graph.addEdge({
          id: newCellId('e'),
          shape: 'edge',
          source: endOf(a, 'b'),
          target: endOf(b, 't'),
          attrs: EDGE_ATTRS,
          zIndex: -1,
        });
        return true;
      },
      removeSelected() {
        const graph = graphRef.current!;
        graph.removeCells(graph.getSelectedCells());
      },
      undo: () => graphRef.current?.undo(),
      redo: () => graphRef.current?.redo(),
      updateNode(id, data, width) {
        const node = graphRef.current?.getCellById(id);
        if (!node?.isNode()) return;
        node.setData(data, { overwrite: true });
        node.setAttrByPath('label/text', data.label);
        if (width !== undefined) node.resize(width, node.getSize().height);
      },
      exportSvg: (fileName) =>
        graphRef.current?.exportSVG(fileName, { preserveDimensions: true, copyStyles: false }),
      exportPng: (fileName) =>
        graphRef.current?.exportPNG(fileName, { padding: 20, backgroundColor: '#fff', copyStyles: false }),
    }),
    [],
  );

  const zoom = (factor: number) => {
    const graph = graphRef.current;
    if (!graph) return;
    const next = Math.min(MAX_SCALE, Math.max(MIN_SCALE, graph.scale().sx * factor));
    graph.zoomTo(next, { center: graph.getGraphArea().center });
  };

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%' }}>
      <style>{CANVAS_CSS}</style>
      <div ref={container} data-testid="diagram-canvas" style={{ width: '100%', height: '100%' }} />
      <DiagramControls
        scale={scale}
        compact={compact}
        nodes={saved.nodes}
        onZoomIn={() => zoom(ZOOM_STEP)}
        onZoomOut={() => zoom(1 / ZOOM_STEP)}
        onActualSize={() => {
          const graph = graphRef.current;
          graph?.zoomTo(1, { center: graph.getGraphArea().center });
        }}
        onFit={() => graphRef.current?.zoomToFit({ padding: FIT_PADDING, maxScale: 1 })}
        onFind={(id) => {
          const graph = graphRef.current;
          const node = graph?.getCellById(id);
          if (!graph || !node?.isNode()) return;
          if (graph.scale().sx < 1) graph.zoomTo(1);
          graph.centerCell(node);
          setFound(id);
        }}
      />
      <div
        ref={minimap}
        data-testid="diagram-minimap"
        style={{
          position: 'absolute',
          right: 8,
          bottom: 8,
          border: '1px solid #d9d9d9',
          background: '#fff',
          boxShadow: '0 1px 4px rgba(0,0,0,0.12)',
          display: compact ? 'none' : undefined,
        }}
      />
    </div>
  );
});
