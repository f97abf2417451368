export { checkComponent } from './rules.ts';
export { createComponentGrid } from './store.ts';
