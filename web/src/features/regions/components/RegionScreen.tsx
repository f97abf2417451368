import type { RegionNode } from '@kilowatch/contract';
import { Col, Row } from 'antd';
import { useRegionTree } from '../../../api/regions.ts';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { BindingsPanel } from './BindingsPanel.tsx';
import { RegionTreePanel } from './RegionTreePanel.tsx';

const findNode = (nodes: RegionNode[], id: number): RegionNode | null => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const found = findNode(n.children, id);
    if (found) return found;
  }
  return null;
};

/** /region (区域管理): the region tree on the left, the selected region's devices on the right. */
export function RegionScreen() {
  const tree = useRegionTree();
  const [search, patch] = useSearchPatch();
  // The selected region lives in the address, so a reload or a shared link keeps it.
  const selectedId = Number(search.get('region')) || null;
  const selected = selectedId == null ? null : findNode(tree.data ?? [], selectedId);

  const onSelect = (region: RegionNode | null) => patch({ region: region?.id ?? null });

  return (
    <Row gutter={[16, 16]} align="stretch">
      <Col xs={24} lg={9} xl={8}>
        <RegionTreePanel selectedId={selected?.id ?? null} onSelect={onSelect} />
      </Col>
      <Col xs={24} lg={15} xl={16}>
        <BindingsPanel region={selected} />
      </Col>
    </Row>
  );
}
