/**
 * The demo scenario (`tended simulate` without --scenario, `npm run demo`). Imported rather than
 * read from disk so the build copies it into dist/ beside the code.
 */
import demo from './demo-scenario.json' with { type: 'json' };
import { parseScenario, type Scenario } from './scenario.js';

export function demoScenario(): Scenario {
  return parseScenario(structuredClone(demo));
}
