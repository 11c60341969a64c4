/**
 * How every setting is read from the environment (infra/config.ts and the loaders it calls): an
 * empty value is the default; a bad value is recorded in `problems`, so the service reports every
 * bad setting at once, and the default stands in until then.
 */
export type Env = Record<string, string | undefined>;

export interface EnvReader {
  str(name: string, fallback: string): string;
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string): boolean;
}

export function envReader(env: Env, problems: string[]): EnvReader {
  return {
    str(name, fallback) {
      const v = env[name];
      return v === undefined || v === '' ? fallback : v;
    },
    int(name, fallback, min, max) {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min || n > max) {
        problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
        return fallback;
      }
      return n;
    },
    bool(name) {
      const raw = env[name];
      if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
      if (raw === '1' || raw === 'true') return true;
      problems.push(`${name} must be 1/true or 0/false, got "${raw}"`);
      return false;
    },
  };
}
