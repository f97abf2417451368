import {
  DEFAULT_DIAGRAM_THRESHOLDS,
  type Diagram,
  type DiagramCreate,
  type DiagramGraph,
  type DiagramPatch,
  type DiagramSummary,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { Catalog } from '../catalog/index.ts';
import * as repo from './repository.ts';
import { validateGraph } from './validate.ts';

export interface DiagramsDeps {
  db: Kysely<DB>;
  /** Checks bindings: the bound thing's abilities. */
  catalog: Pick<Catalog, 'abilitiesOf'>;
  now: () => number;
}

const notFound = (id: number) => new AppError('NOT_FOUND', 404, { id }, { message: 'diagrams.notFound' });
const nameTaken = (name: string) =>
  new AppError('CONFLICT', 409, { name }, { message: 'diagrams.nameTaken' });

const emptyGraph = (): DiagramGraph => ({
  nodes: [],
  edges: [],
  thresholds: { ...DEFAULT_DIAGRAM_THRESHOLDS },
});

/** Single-line diagrams (docs/electric-diagram.md): a list of named graphs, each saved whole. */
export function createDiagramsService(deps: DiagramsDeps) {
  const { db, catalog, now } = deps;
  const stamp = () => new Date(now()).toISOString();
  const check = (graph: DiagramGraph) => validateGraph(graph, (id) => catalog.abilitiesOf(id));

  async function get(id: number): Promise<Diagram> {
    const diagram = await repo.diagramById(db, id);
    if (!diagram) throw notFound(id);
    return diagram;
  }

  return {
    list: (): Promise<DiagramSummary[]> => repo.listDiagrams(db),
    get,

    async create(input: DiagramCreate): Promise<Diagram> {
      const graph = input.graph ?? emptyGraph();
      await check(graph);
      try {
        return await get(await repo.insertDiagram(db, input.name, graph, stamp()));
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(input.name);
        throw error;
      }
    },

    async patch(id: number, patch: DiagramPatch): Promise<Diagram> {
      if (patch.graph) await check(patch.graph);
      try {
        if (!(await repo.updateDiagram(db, id, patch, stamp()))) throw notFound(id);
      } catch (error) {
        if (patch.name !== undefined && isUniqueViolation(error)) throw nameTaken(patch.name);
        throw error;
      }
      return get(id);
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.deleteDiagram(db, id))) throw notFound(id);
    },

    /** Whether a diagram of this name exists (the demo seeds its own once). */
    async exists(name: string): Promise<boolean> {
      return (await repo.listDiagrams(db)).some((d) => d.name === name);
    },
  };
}

export type DiagramsService = ReturnType<typeof createDiagramsService>;
