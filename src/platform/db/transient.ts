/** Lock waits, deadlocks, serialization failures and lost connections: the same work succeeds on a retry. */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (/^(08|40|53|55|57)/.test(code) || /^E[A-Z]+$/.test(code));
}
