import type { ChartType } from '@kilowatch/contract';
import { App } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from '../crud/confirm-delete.tsx';
import { ComponentDialog, type DialogComponent } from './ComponentDialog.tsx';

export interface ComponentEditorOptions<C extends DialogComponent<T> & { id: number }, T extends string> {
  create: (input: DialogComponent<T>) => Promise<unknown>;
  patch: (component: C, input: DialogComponent<T>) => Promise<unknown>;
  remove: (component: C) => Promise<unknown>;
  /** A create or a change is under way. */
  saving: boolean;
  /** The toasts after a create and after a change, in the owner's words. */
  created: string;
  saved: string;
  /** The kinds offered (default the report's chart types). */
  chartTypes?: readonly T[];
  /** A new component's region (a board page's). */
  defaultRegionId?: number;
}

/**
 * A grid's editing, the same for a KPI report and a board page: the add/edit dialog and what its
 * save does, and the delete behind a confirmation that keeps the server's reason when it fails.
 */
export function useComponentEditor<
  C extends DialogComponent<T> & { id: number },
  T extends string = ChartType,
>(
  options: ComponentEditorOptions<C, T>,
): { add: () => void; edit: (component: C) => void; remove: (component: C) => void; dialog: ReactNode } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<C | 'new' | null>(null);

  const dialog = (
    <ComponentDialog<T>
      open={editing !== null}
      component={editing === 'new' ? null : editing}
      chartTypes={options.chartTypes}
      defaultRegionId={options.defaultRegionId}
      saving={options.saving}
      onCancel={() => setEditing(null)}
      onSave={async (input) => {
        if (editing === 'new') {
          await options.create(input);
          message.success(options.created);
        } else if (editing) {
          await options.patch(editing, input);
          message.success(options.saved);
        }
        setEditing(null);
      }}
    />
  );
  return {
    add: () => setEditing('new'),
    edit: (component) => setEditing(component),
    remove: (component) =>
      confirmDelete({
        content: t('reportGrid.component.deleteTitle', { name: component.title }),
        onDelete: () => options.remove(component),
      }),
    dialog,
  };
}
