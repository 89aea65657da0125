import type { Config } from '../config/config.js';
import type { Store } from '../storage/store.js';

/**
 * What the composition root hands the CLI: the only place that knows which adapters exist. Its
 * own file so the command files take it without importing run.ts, which alone imports them.
 */
export interface CliWiring {
  openStore(config: Config): Promise<Store>;
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}
