/**
 * Every problem of the configuration at once. Apart from config.ts because the settings it loads
 * (infra/secrets) throw it too, and config.ts imports them.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ConfigError';
  }
}
