/**
 * The simulator's scenario: what each simulated upstream says about each component, in dated
 * phases. A phase says what the upstream answers from its `from` date on; the phase in force is
 * picked by the simulator's clock, so moving the clock (faketime, or `clock` in tests) plays a
 * component's life forward. Later phases inherit the fields of earlier ones, except `fail`,
 * `status` and `dependents_fail`, which hold for their own phase only. Before its first phase a
 * component does not exist (404).
 */
import { z } from 'zod';
import { isComponentKind, normaliseComponent, type ComponentRef } from '../domain/component.js';
import {
  EolProduct,
  GithubGraphql,
  LISTING_FAILS,
  OsvExportPhase,
  PHASES,
  type GithubGraphqlScenario,
  type ListingFault,
  type Phase,
} from './scenario-phases.js';

export interface Scenario {
  /** Keyed `kind:id` (`github:owner/repo`, `npm:@scope/name`, `pypi:name`, `docker:node:18-alpine`, `maven:group:artifact`, `golang:module/path`). */
  components: Record<string, Phase[]>;
  /** endoflife.date products by canonical name. */
  endoflife?: Record<string, EolProduct>;
  /** Enforce a primary GitHub limit of this many requests per hour (unset: never exhausted). */
  github_rate_limit?: number;
  /** GitHub's GraphQL endpoint: its limits and failures (unset: 5,000 points an hour, healthy). */
  github_graphql?: GithubGraphqlScenario;
  /** The dependents source's registry identifier (default `npmjs.org`). */
  dependents_registry?: string;
  /** Failures of the dependents source's listing pages (dependents.ts): a page fails `times` times, then answers. */
  dependents_listing_faults?: ListingFault[];
  /** OSV's export bucket, in dated phases: from `from` on, every object (or every record) fails so (neither: it answers). */
  osv_export?: OsvExportPhase[];
}

export class ScenarioError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid scenario:\n  ${problems.join('\n  ')}`);
    this.name = 'ScenarioError';
  }
}

function where(path: PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
}

function checkOrder(phases: { from: string }[], at: string, problems: string[]): void {
  for (let i = 1; i < phases.length; i++) {
    if (phases[i]!.from <= phases[i - 1]!.from)
      problems.push(
        `${at}[${i}].from: phases must be in ascending date order (${phases[i]!.from} after ${phases[i - 1]!.from})`,
      );
  }
}

/** Validates a scenario (parsed JSON) and normalises its keys; throws a ScenarioError listing every problem. */
export function parseScenario(input: unknown): Scenario {
  const problems: string[] = [];
  const top = z
    .strictObject({
      components: z.record(z.string(), z.array(z.unknown()).min(1, 'needs at least one phase')),
      endoflife: z.record(z.string(), z.unknown()).optional(),
      github_rate_limit: z.number().int().positive().optional(),
      github_graphql: GithubGraphql.optional(),
      dependents_registry: z.string().min(1).optional(),
      dependents_listing_faults: z
        .array(
          z.strictObject({
            registry: z.string().min(1),
            page: z.number().int().min(1),
            fail: z.enum(LISTING_FAILS),
            times: z.number().int().min(1).optional(),
          }),
        )
        .optional(),
      osv_export: z.array(OsvExportPhase).optional(),
    })
    .safeParse(input);
  if (!top.success) throw new ScenarioError(top.error.issues.map((i) => `scenario${where(i.path)}: ${i.message}`));
  const out: Scenario = { components: {}, endoflife: {} };
  if (top.data.github_rate_limit !== undefined) out.github_rate_limit = top.data.github_rate_limit;
  if (top.data.github_graphql !== undefined) out.github_graphql = top.data.github_graphql;
  if (top.data.dependents_registry !== undefined) out.dependents_registry = top.data.dependents_registry;
  if (top.data.dependents_listing_faults !== undefined)
    out.dependents_listing_faults = top.data.dependents_listing_faults;
  if (top.data.osv_export !== undefined) {
    checkOrder(top.data.osv_export, 'osv_export', problems);
    out.osv_export = top.data.osv_export;
  }

  for (const [key, phases] of Object.entries(top.data.components)) {
    const at = `components[${JSON.stringify(key)}]`;
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    if (colon < 0 || !isComponentKind(kind)) {
      problems.push(
        `${at}: a component key is kind:id with kind github, npm, pypi, docker, maven, golang, cargo, nuget, gem, composer or distro`,
      );
      continue;
    }
    let ref: ComponentRef;
    try {
      ref = normaliseComponent(kind, key.slice(colon + 1));
    } catch (e) {
      problems.push(`${at}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const normal = `${ref.kind}:${ref.id}`;
    if (out.components[normal]) {
      problems.push(`${at}: the same component as another key (both are ${normal})`);
      continue;
    }
    const parsed = z.array(PHASES[ref.kind]).safeParse(phases);
    if (!parsed.success) {
      for (const i of parsed.error.issues) problems.push(`${at}${where(i.path)}: ${i.message}`);
      continue;
    }
    checkOrder(parsed.data, at, problems);
    out.components[normal] = parsed.data;
  }

  const names = new Set<string>();
  for (const [name, raw] of Object.entries(top.data.endoflife ?? {})) {
    const at = `endoflife[${JSON.stringify(name)}]`;
    const parsed = EolProduct.safeParse(raw);
    if (!parsed.success) {
      for (const i of parsed.error.issues) problems.push(`${at}${where(i.path)}: ${i.message}`);
      continue;
    }
    for (const n of [name, ...(parsed.data.aliases ?? [])]) {
      if (names.has(n.toLowerCase())) problems.push(`${at}: the name or alias "${n}" is used twice`);
      names.add(n.toLowerCase());
    }
    checkOrder(parsed.data.phases, `${at}.phases`, problems);
    out.endoflife![name.toLowerCase()] = parsed.data;
  }
  if (problems.length > 0) throw new ScenarioError(problems);
  return out;
}

/** Fields that hold for their own phase only. */
const NOT_INHERITED = new Set(['fail', 'status', 'dependents_fail', 'osv_fail', 'records_fail', 'from']);

/** The phase in force on `today`: every phase from on or before it, merged in order. Null before the first. */
export function phaseAt<P extends { from: string }>(phases: readonly P[], today: string): P | null {
  let merged: Record<string, unknown> | null = null;
  for (const p of phases) {
    if (p.from > today) break;
    const carried: Record<string, unknown> = Object.fromEntries(
      Object.entries(merged ?? {}).filter(([k]) => !NOT_INHERITED.has(k)),
    );
    merged = { ...carried, ...p };
  }
  return merged as P | null;
}

/** Every component a scenario describes, as references (for the demo and the benchmark). */
export function scenarioComponents(scenario: Scenario): ComponentRef[] {
  return Object.keys(scenario.components).map((key) => {
    const colon = key.indexOf(':');
    return normaliseComponent(key.slice(0, colon), key.slice(colon + 1));
  });
}
