/**
 * A seeded scenario of the kinds issue 16 added (Maven, Go, crates.io, NuGet, RubyGems, Packagist,
 * distribution releases), for
 * bench:observe: `n` components, most of them healthy, their last release spread over two years.
 */
import { addDays } from '../src/domain/calendar.js';
import { seededRandom } from '../src/simulator/random.js';
import type { Scenario } from '../src/simulator/scenario.js';
import type { Phase } from '../src/simulator/scenario-phases.js';

const DEBIAN = ['10', '11', '12', '13'];

export function moreKindsScenario(n: number, seed: number): Scenario {
  const random = seededRandom(seed);
  const when = () => `${addDays('2024-06-01', Math.floor(random() * 730))}T10:00:00Z`;
  const components: Record<string, Phase[]> = {};
  for (let i = 0; i < n; i++) {
    const r = random();
    const versions = { [`1.0.${i % 7}`]: when(), [`1.1.${i % 5}`]: when() };
    if (r < 0.3) components[`maven:org.gen${i % 41}:artifact-${i}`] = [{ from: '2020-01-01', versions }];
    else if (r < 0.55)
      components[`golang:example.com/gen${i % 37}/mod-${i}`] = [
        { from: '2020-01-01', versions: { 'v1.0.0': when(), 'v1.1.0': when() } },
      ];
    else if (r < 0.67) components[`cargo:gen-crate-${i}`] = [{ from: '2020-01-01', versions }];
    else if (r < 0.77) components[`nuget:gen.package-${i}`] = [{ from: '2020-01-01', versions }];
    else if (r < 0.87) components[`gem:gen-gem-${i}`] = [{ from: '2020-01-01', versions }];
    else if (r < 0.98) components[`composer:gen${i % 29}/package-${i}`] = [{ from: '2020-01-01', versions }];
    else components[`distro:debian/${DEBIAN[i % DEBIAN.length]}`] = [{ from: '2020-01-01' }];
  }
  return {
    components,
    endoflife: {
      debian: {
        phases: [
          {
            from: '2020-01-01',
            releases: [
              { name: '13', eolFrom: '2028-08-09', latest: '13.1', latestDate: '2026-01-10' },
              { name: '12', eolFrom: '2026-06-10', latest: '12.12', latestDate: '2025-09-06' },
              { name: '11', eolFrom: '2024-08-14', latest: '11.11', latestDate: '2024-08-31' },
              { name: '10', eolFrom: '2022-09-10', latest: '10.13', latestDate: '2022-09-10' },
            ],
          },
        ],
      },
    },
  };
}
