import type { FormInstance } from 'antd';

type FieldNames = Parameters<FormInstance['validateFields']>[0] & unknown[];

/** antd's rejection of an invalid form: every field's errors, which the form shows beside them. */
export const isInvalidForm = (error: unknown): error is { errorFields: unknown[] } =>
  typeof error === 'object' &&
  error !== null &&
  Array.isArray((error as { errorFields?: unknown }).errorFields);

/**
 * The form's values when valid, null when not. An invalid form is not an error: antd shows what
 * is wrong beside each field, so its rejection stops the submit here instead of escaping as an
 * unhandled rejection. Anything else that rejects is an error and is thrown on.
 * @example const values = await validValues(form); if (!values) return;
 */
export async function validValues<T>(form: FormInstance<T>, fields?: FieldNames): Promise<T | null> {
  try {
    return fields === undefined ? await form.validateFields() : await form.validateFields(fields);
  } catch (error) {
    if (isInvalidForm(error)) return null;
    throw error;
  }
}
