import { readFileSync } from 'node:fs';
import { demoScenario } from '../simulator/demo.js';
import { parseScenario } from '../simulator/scenario.js';
import { startSimulator } from '../simulator/server.js';
import type { CliWiring } from './run.js';

/** `tended simulate`: the simulated upstreams on loopback, and the variables that point Tended at them. */
export async function simulateCommand(wiring: CliWiring, opts: { scenario?: string; port?: string }): Promise<number> {
  const scenario = opts.scenario ? parseScenario(JSON.parse(readFileSync(opts.scenario, 'utf8'))) : demoScenario();
  const simulator = await startSimulator({ scenario, port: opts.port ? Number(opts.port) : 0 });
  const u = simulator.urls;
  wiring.stdout.write(
    [
      `simulated upstreams on ${simulator.url}; point Tended at them with:`,
      `export TENDED_GITHUB_API_URL=${u.github} TENDED_NPM_REGISTRY_URL=${u.npm} TENDED_PYPI_URL=${u.pypi}`,
      `export TENDED_EOL_API_URL=${u.endoflife} TENDED_DOCKERHUB_API_URL=${u.dockerhub} TENDED_DEPENDENTS_URL=${u.dependents}`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await simulator.close();
  return 0;
}
