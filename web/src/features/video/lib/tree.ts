import type { Camera, RegionNode } from '@kilowatch/contract';

/** A node of the camera picker: a region (with the cameras in its subtree), a group, or a camera. */
export interface CameraTreeNode {
  key: string;
  title: string;
  cameraId?: number;
  /** Every camera in this node's subtree, in tree order (a region fills the grid with these). */
  cameraIds: number[];
  children?: CameraTreeNode[];
}

const cameraNode = (c: Camera): CameraTreeNode => ({
  key: `camera:${c.id}`,
  title: c.name,
  cameraId: c.id,
  cameraIds: [c.id],
});

/**
 * Cameras grouped by region, as the region tree holds them (regions without a camera below them
 * are left out), then those bound to a device, then those bound to nothing.
 */
export function cameraTree(
  regions: readonly RegionNode[],
  cameras: readonly Camera[],
  labels: { byThing: string; unassigned: string },
): CameraTreeNode[] {
  const placed = new Set<number>();
  const walk = (nodes: readonly RegionNode[]): CameraTreeNode[] =>
    nodes
      .filter((n) => n.resourceType === 'region')
      .flatMap((n) => {
        const own = cameras.filter((c) => c.regionId === n.id);
        for (const c of own) placed.add(c.id);
        const children = [...walk(n.children ?? []), ...own.map(cameraNode)];
        if (children.length === 0) return [];
        return [
          {
            key: `region:${n.id}`,
            title: n.name,
            cameraIds: children.flatMap((c) => c.cameraIds),
            children,
          },
        ];
      });
  const tree = walk(regions);
  const group = (key: string, title: string, list: Camera[]): CameraTreeNode[] =>
    list.length ? [{ key, title, cameraIds: list.map((c) => c.id), children: list.map(cameraNode) }] : [];
  const rest = cameras.filter((c) => !placed.has(c.id));
  return [
    ...tree,
    ...group(
      'things',
      labels.byThing,
      rest.filter((c) => c.thingId !== null),
    ).map((g) => ({
      ...g,
      children: g.children?.map((n) => {
        const camera = rest.find((c) => c.id === n.cameraId);
        return camera?.thingName ? { ...n, title: `${camera.thingName} · ${n.title}` } : n;
      }),
    })),
    ...group(
      'unassigned',
      labels.unassigned,
      rest.filter((c) => c.thingId === null),
    ),
  ];
}

/** The cameras of a region and its subregions. */
export function camerasInRegion(
  regions: readonly RegionNode[],
  cameras: readonly Camera[],
  regionId: number,
) {
  const ids = new Set<number>();
  const collect = (node: RegionNode) => {
    ids.add(node.id);
    for (const child of node.children ?? []) collect(child);
  };
  const find = (nodes: readonly RegionNode[]): RegionNode | undefined => {
    for (const n of nodes) {
      if (n.id === regionId && n.resourceType === 'region') return n;
      const found = find(n.children ?? []);
      if (found) return found;
    }
    return undefined;
  };
  const root = find(regions);
  if (!root) return { name: null, cameras: [] as Camera[] };
  collect(root);
  return { name: root.name, cameras: cameras.filter((c) => c.regionId !== null && ids.has(c.regionId)) };
}
