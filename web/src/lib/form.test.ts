import type { FormInstance } from 'antd';
import { describe, expect, it } from 'vitest';
import { isInvalidForm, validValues } from './form.ts';

const formRejecting = (error: unknown) =>
  ({ validateFields: () => Promise.reject(error) }) as unknown as FormInstance<{ name: string }>;

describe('validValues', () => {
  it('answers the values of a valid form', async () => {
    const form = { validateFields: async () => ({ name: 'a' }) } as unknown as FormInstance<{ name: string }>;
    await expect(validValues(form)).resolves.toEqual({ name: 'a' });
  });

  it('answers null, not a rejection, for an invalid form', async () => {
    const invalid = { values: {}, errorFields: [{ name: ['name'], errors: ['必填'] }], outOfDate: false };
    expect(isInvalidForm(invalid)).toBe(true);
    await expect(validValues(formRejecting(invalid))).resolves.toBeNull();
  });

  it('throws on anything else', async () => {
    await expect(validValues(formRejecting(new Error('boom')))).rejects.toThrow('boom');
  });
});
