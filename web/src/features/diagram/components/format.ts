/** A live value for display: numbers to at most two decimals, text as sent, a dash when none came. */
export function formatValue(value: number | string | undefined, unit: string): string {
  if (value === undefined) return '—';
  const text = typeof value === 'number' ? String(Number(value.toFixed(2))) : value;
  return unit ? `${text} ${unit}` : text;
}
