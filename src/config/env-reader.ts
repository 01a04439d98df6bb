/** An environment as loadConfig reads it: variable name to raw value. */
export type Env = Record<string, string | undefined>;

/**
 * Typed readers over one environment. A bad value adds a problem and yields the fallback, so that loadConfig can
 * report every bad value at once, not just the first.
 */
export function envReader(env: Env, problems: string[]) {
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be 1 or 0 (got "${raw}")`);
    return fallback;
  };

  const positive = (name: string, fallback: number, unit: string): number => {
    const raw = env[name];
    const value = raw ? Number(raw) : fallback;
    if (!(Number.isFinite(value) && value > 0)) {
      problems.push(`${name} must be a positive number of ${unit} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const wholePositive = (name: string, fallback: number, unit: string): number => {
    const value = positive(name, fallback, unit);
    if (Number.isInteger(value)) return value;
    problems.push(`${name} must be a whole number of ${unit} (got "${env[name]}")`);
    return fallback;
  };

  return { flag, positive, wholePositive };
}
