/**
 * A large seeded scenario for benchmarks: `n` components across the four kinds, mostly healthy
 * with a spread of ages, plus the explicit states and failures in small shares. The same
 * (n, seed) always gives the same scenario.
 */
import { addDays } from '../domain/calendar.js';
import { seededRandom } from './random.js';
import type { Scenario } from './scenario.js';
import type { DockerPhase, EolProduct, GithubPhase, NpmPhase, Phase, PypiPhase } from './scenario-phases.js';

const START = '2023-01-01';
/** Latest activity dates run over this many days after START (to mid-November 2026). */
const SPAN = 1414;

const ENDOFLIFE: Record<string, EolProduct> = {
  nodejs: {
    aliases: ['node'],
    phases: [
      {
        from: '2020-01-01',
        releases: [
          { name: '24', eolFrom: '2028-04-30' },
          { name: '22', eolFrom: '2027-04-30' },
          { name: '20', eolFrom: '2026-04-30' },
          { name: '18', eolFrom: '2025-04-30' },
          { name: '16', eolFrom: '2023-09-11' },
        ],
      },
    ],
  },
  python: {
    phases: [
      {
        from: '2020-01-01',
        releases: [
          { name: '3.13', eolFrom: '2029-10-31' },
          { name: '3.12', eolFrom: '2028-10-31' },
          { name: '3.11', eolFrom: '2027-10-31' },
          { name: '3.9', eolFrom: '2025-10-31' },
          { name: '3.8', eolFrom: '2024-10-07' },
        ],
      },
    ],
  },
  debian: {
    phases: [
      {
        from: '2020-01-01',
        releases: [
          { name: '13', codename: 'Trixie', eolFrom: '2028-08-09' },
          { name: '12', codename: 'Bookworm', eolFrom: '2026-06-10' },
          { name: '11', codename: 'Bullseye', eolFrom: '2024-08-14' },
        ],
      },
    ],
  },
  'alpine-linux': {
    aliases: ['alpine'],
    phases: [
      {
        from: '2020-01-01',
        releases: [
          { name: '3.21', eolFrom: '2026-11-01' },
          { name: '3.20', eolFrom: '2026-04-01' },
          { name: '3.19', eolFrom: '2025-11-01' },
        ],
      },
    ],
  },
};

export function generatedScenario(n: number, seed: number): Scenario {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const day = () => addDays(START, Math.floor(random() * SPAN));
  const at = (d: string) => `${d}T${String(Math.floor(random() * 24)).padStart(2, '0')}:00:00Z`;
  const components: Record<string, Phase[]> = {};

  /** Dated phases: activity moves forward a few times, and a small share ends in an explicit state or a failure. */
  const life = <P extends Phase>(healthy: (d: string) => Omit<P, 'from'>, ending: () => Partial<P> | null): P[] => {
    // The latest activity is spread evenly over the span, so ages spread over every age state.
    const count = 1 + Math.floor(random() * 3);
    const days = [day()];
    for (let i = 1; i < count; i++) days.unshift(addDays(days[0]!, -(30 + Math.floor(random() * 300))));
    // Every component exists from 2020 on, with an old first release, so no simulated date
    // before its later phases reads it as missing (a 404, a death).
    const phases: P[] = [{ from: '2020-01-01', ...healthy(addDays('2019-06-01', Math.floor(random() * 180))) } as P];
    phases.push(...days.map((d) => ({ from: d, ...healthy(d) }) as P));
    const d = addDays(days.at(-1)!, 30 + Math.floor(random() * 120));
    const end = ending();
    if (end) phases.push({ from: d, ...end } as P);
    return phases;
  };
  const roll = () => random();

  for (let i = 0; i < n; i++) {
    const r = roll();
    if (r < 0.4) {
      components[`github:gen-org-${i % 97}/repo-${i}`] = life<GithubPhase>(
        (d) => ({ created_at: '2019-01-01T00:00:00Z', pushed_at: at(d), last_commit: at(d) }),
        () => {
          const e = roll();
          return e < 0.03
            ? { archived: true }
            : e < 0.05
              ? { fail: 'not_found' }
              : e < 0.06
                ? { renamed_to: `gen-moved/repo-${i}` }
                : e < 0.07
                  ? { fail: 'server_error' }
                  : null;
        },
      );
    } else if (r < 0.7) {
      const name = i % 5 === 0 ? `@gen${i % 13}/pkg-${i}` : `gen-pkg-${i}`;
      let versions: Record<string, string> = {};
      components[`npm:${name}`] = life<NpmPhase>(
        (d) => {
          versions = { ...versions, [`1.${Object.keys(versions).length}.0`]: `${d}T10:00:00.000Z` };
          return { versions, dependents: Math.floor(random() * 50) };
        },
        () => {
          const e = roll();
          return e < 0.03
            ? { deprecated: 'no longer maintained' }
            : e < 0.04
              ? { fail: 'unpublished' }
              : e < 0.05
                ? { fail: 'not_found' }
                : null;
        },
      );
    } else if (r < 0.85) {
      let releases: Record<string, string> = {};
      components[`pypi:gen-py-${i}`] = life<PypiPhase>(
        (d) => {
          releases = { ...releases, [`0.${Object.keys(releases).length + 1}`]: `${d}T12:00:00.000000Z` };
          return { releases };
        },
        () => {
          const e = roll();
          return e < 0.03
            ? { project_status: 'archived' }
            : e < 0.04
              ? { fail: 'all_yanked' }
              : e < 0.05
                ? { fail: 'not_found' }
                : null;
        },
      );
    } else {
      const official = roll() < 0.5;
      const image = official
        ? pick([
            `library/node:${pick(['18', '20', '22', '24'])}.${i}-alpine${pick(['3.19', '3.20', '3.21'])}`,
            `library/python:${pick(['3.8', '3.11', '3.12'])}.${i}-slim-${pick(['bullseye', 'bookworm', 'trixie'])}`,
          ])
        : `gen${i % 31}/app-${i}:1.${i % 7}`;
      components[`docker:docker.io/${image}`] = life<DockerPhase>(
        (d) => ({ tag_last_pushed: at(d) }),
        () => (roll() < 0.03 ? { fail: 'not_found' } : null),
      );
    }
  }
  return { components, endoflife: structuredClone(ENDOFLIFE) };
}
