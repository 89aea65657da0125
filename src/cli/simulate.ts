import { readFileSync } from 'node:fs';
import { demoScenario } from '../simulator/demo.js';
import { upstreamEnv } from '../simulator/env.js';
import { parseScenario } from '../simulator/scenario.js';
import { startSimulator } from '../simulator/server.js';
import type { CliWiring } from './wiring.js';

/** `tended simulate`: the simulated upstreams on loopback, and the variables that point Tended at them. */
export async function simulateCommand(wiring: CliWiring, opts: { scenario?: string; port?: string }): Promise<number> {
  const scenario = opts.scenario ? parseScenario(JSON.parse(readFileSync(opts.scenario, 'utf8'))) : demoScenario();
  const simulator = await startSimulator({ scenario, port: opts.port ? Number(opts.port) : 0 });
  const exports = Object.entries(upstreamEnv(simulator.urls)).map(([name, value]) => `export ${name}=${value}`);
  wiring.stdout.write(
    [`simulated upstreams on ${simulator.url}; point Tended at them with:`, ...exports, ''].join('\n'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await simulator.close();
  return 0;
}
