import { type Language, THING_IMPORT_COLUMNS } from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { translate } from '../../../i18n/index.ts';
import type { ImportFormat } from './columns.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The import template: the header row in `language` (every language's labels and the column keys
 * are accepted back), and in the xlsx a sheet explaining each column and ones listing the
 * existing models and region paths.
 */
export async function buildImportTemplate(
  format: ImportFormat,
  language: Language,
  models: readonly { category: string; model: string }[],
  regions: readonly string[],
): Promise<{ body: Buffer; contentType: string; filename: string }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('things');
  sheet.addRow(THING_IMPORT_COLUMNS.map((column) => translate(language, `import.col.${column}`)));
  if (format === 'csv') {
    const csv = Buffer.from(await workbook.csv.writeBuffer());
    // A BOM so that Excel opens the UTF-8 file with Chinese names intact.
    return {
      body: Buffer.concat([Buffer.from('\uFEFF', 'utf8'), csv]),
      contentType: 'text/csv; charset=utf-8',
      filename: 'things-import-template.csv',
    };
  }
  sheet.getRow(1).font = { bold: true };
  sheet.columns = THING_IMPORT_COLUMNS.map((key) => ({ key, width: key === 'description' ? 40 : 24 }));
  const help = workbook.addWorksheet('help');
  help.addRow(['column', translate(language, 'import.col.name'), '']).font = { bold: true };
  for (const column of THING_IMPORT_COLUMNS) {
    help.addRow([
      column,
      translate(language, `import.col.${column}`),
      translate(language, `import.help.${column}`),
    ]);
  }
  help.columns = [{ width: 16 }, { width: 16 }, { width: 80 }];
  const list = workbook.addWorksheet('models');
  list.addRow(['category', 'model', 'category/model']).font = { bold: true };
  for (const m of models) list.addRow([m.category, m.model, `${m.category}/${m.model}`]);
  list.columns = [{ width: 24 }, { width: 24 }, { width: 40 }];
  const regionList = workbook.addWorksheet('regions');
  regionList.addRow(['region']).font = { bold: true };
  for (const path of regions) regionList.addRow([path]);
  regionList.columns = [{ width: 48 }];
  return {
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
    contentType: XLSX_TYPE,
    filename: 'things-import-template.xlsx',
  };
}
