// The device import: its columns and limits (columns.ts), reading a file as it arrives (read.ts) in
// a worker thread (upload.ts, worker.ts), checking its rows against what exists (validate.ts), and
// the template to fill in (template.ts).
export {
  ACCESS_TOKEN_PATTERN,
  formatOf,
  IMPORT_MAX_LINES,
  IMPORT_MAX_ROWS,
  type ImportFormat,
  type ImportProblem,
  inTurns,
  isIdentifier,
} from './columns.ts';
export { parseImportFile } from './read.ts';
export { buildImportTemplate } from './template.ts';
export { parseImportUpload } from './upload.ts';
export { validateImportRows } from './validate.ts';
