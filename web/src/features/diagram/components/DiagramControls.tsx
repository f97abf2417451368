import { CompressOutlined, SearchOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import type { DiagramNode } from '@kilowatch/contract';
import { Button, Flex, Select, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { findNodes, MAX_SCALE, MIN_SCALE } from '../lib/viewport.ts';

export interface DiagramControlsProps {
  scale: number;
  /** A phone's width: no mouse help, a narrower find. */
  compact: boolean;
  nodes: readonly DiagramNode[];
  onZoomIn(): void;
  onZoomOut(): void;
  onActualSize(): void;
  onFit(): void;
  /** A symbol picked in "find": centre and ring it. */
  onFind(nodeId: string): void;
}

/**
 * The diagram's view controls over its top-left corner: zoom out/in with the scale between, 100 %,
 * fit, find a symbol by name, and how to pan and zoom with the mouse.
 */
export function DiagramControls({
  scale,
  compact,
  nodes,
  onZoomIn,
  onZoomOut,
  onActualSize,
  onFit,
  onFind,
}: DiagramControlsProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const matches = useMemo(() => findNodes(nodes, query), [nodes, query]);
  return (
    <Flex
      wrap
      gap={4}
      align="center"
      data-testid="diagram-controls"
      style={{
        position: 'absolute',
        left: 8,
        top: 8,
        right: 8,
        pointerEvents: 'none',
      }}
    >
      <Flex
        gap={4}
        align="center"
        style={{
          pointerEvents: 'auto',
          background: '#fff',
          border: '1px solid #d9d9d9',
          borderRadius: 6,
          padding: 2,
          boxShadow: '0 1px 4px rgba(0,0,0,0.08)',
        }}
      >
        <Tooltip title={t('diagram.zoomOut')}>
          <Button
            size="small"
            type="text"
            icon={<ZoomOutOutlined />}
            aria-label={t('diagram.zoomOut')}
            disabled={scale <= MIN_SCALE + 1e-6}
            onClick={onZoomOut}
            data-testid="diagram-zoom-out"
          />
        </Tooltip>
        <Typography.Text
          style={{ width: 44, textAlign: 'center', fontVariantNumeric: 'tabular-nums' }}
          data-testid="diagram-scale"
        >
          {Math.round(scale * 100)}%
        </Typography.Text>
        <Tooltip title={t('diagram.zoomIn')}>
          <Button
            size="small"
            type="text"
            icon={<ZoomInOutlined />}
            aria-label={t('diagram.zoomIn')}
            disabled={scale >= MAX_SCALE - 1e-6}
            onClick={onZoomIn}
            data-testid="diagram-zoom-in"
          />
        </Tooltip>
        <Tooltip title={t('diagram.actualSize')}>
          <Button size="small" type="text" onClick={onActualSize} data-testid="diagram-zoom-100">
            1:1
          </Button>
        </Tooltip>
        <Tooltip title={t('diagram.fitHelp')}>
          <Button
            size="small"
            type="text"
            icon={<CompressOutlined />}
            onClick={onFit}
            data-testid="diagram-fit"
          >
            {compact ? null : t('diagram.fit')}
          </Button>
        </Tooltip>
      </Flex>
      <Select
        showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
        value={null}
        placeholder={
          <span>
            <SearchOutlined /> {t('diagram.find')}
          </span>
        }
        aria-label={t('diagram.find')}
        style={{ width: compact ? 150 : 200, pointerEvents: 'auto' }}
        size="small"
        options={matches.map((n) => ({ value: n.id, label: n.label }))}
        notFoundContent={query.trim() ? t('diagram.findNone') : null}
        onSelect={(id) => {
          if (id) onFind(id);
          setQuery('');
        }}
        data-testid="diagram-find"
      />
      {!compact && (
        <Typography.Text
          type="secondary"
          style={{ fontSize: 12, background: 'rgba(255,255,255,0.85)', paddingInline: 4 }}
        >
          {t('diagram.navHelp')}
        </Typography.Text>
      )}
    </Flex>
  );
}
