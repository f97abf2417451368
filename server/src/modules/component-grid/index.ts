export { checkComponent, fitted, nextPlace } from './rules.ts';
export {
  type ComponentGrid,
  createComponentGrid,
  type GridComponent,
  type GridComponentInput,
  type GridSpec,
} from './store.ts';
