/** Numeric-only input: keeps digits and the first dot; every later dot goes. */
export function numericOnly(value: string): string {
  const kept = value.replace(/[^\d.]/g, '');
  const first = kept.indexOf('.');
  return first === -1 ? kept : kept.slice(0, first + 1) + kept.slice(first + 1).replace(/\./g, '');
}

/** Comma-to-dot input: a French decimal comma becomes a dot. */
export function commaToDot(value: string): string {
  return value.replace(/,/g, '.');
}
