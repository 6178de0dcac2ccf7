/** CLI settings from the environment (flags override them). The only place the CLI reads `process.env`. */
export interface CliConfig {
  /** Scheduler base URL. Env `DROVER_URL`. @default 'http://127.0.0.1:7700' */
  url: string;
  /** Operator token for the API. Env `DROVER_API_TOKEN`. */
  token: string | undefined;
  /** Worker packages directory for `pkg install/list`. Env `DROVER_PACKAGES_DIR`. @default '.drover/worker/packages' */
  packagesDir: string;
  /** The environment handed to `scheduler`/`worker`/`dev` child processes. */
  env: NodeJS.ProcessEnv;
}

/** Read the CLI configuration. */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  return Object.freeze({
    url: env.DROVER_URL || 'http://127.0.0.1:7700',
    token: env.DROVER_API_TOKEN || undefined,
    packagesDir: env.DROVER_PACKAGES_DIR || '.drover/worker/packages',
    env,
  });
}
