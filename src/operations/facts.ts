import { effectiveObservations } from '../domain/as-of.js';
import { daysBetween, utcDateOf } from '../domain/calendar.js';
import {
  componentPurls,
  isComponentKind,
  normaliseComponent,
  COMPONENT_KINDS,
  type ComponentRef,
} from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import type { EvidenceValue, Observation } from '../domain/observation.js';
import type { Verdict } from '../notary/verdict.js';
import type { RecordDeps } from './deps.js';
import { DATA_LICENSE, entityResult, entitySeries, type EntityResult, type EntitySeries } from './entity-answer.js';
import { readInclusionProof } from './read-chain.js';
import type { VerdictService } from './verdict.js';

/**
 * The /v1 fact routes (DESIGN §6): dated facts a decision can rest on, never a composite score.
 * Each answers for today from the record as held; a component Tended holds nothing for is answered
 * with "not observed" facts (200), never as "gone".
 */

export const NO_SCORE =
  'Tended computes no score, composite or otherwise: these are the dated facts the record holds, each with the observation and log leaf it rests on. Weigh them yourself.';

/** Validates `/v1/{route}/{kind}/{id}`, reporting each fault at its path parameter (spec §7). */
export function factTarget(kind: string | undefined, id: string | undefined): ComponentRef {
  const k = (kind ?? '').trim().toLowerCase();
  if (!isComponentKind(k)) {
    // The id's shape depends on the kind, so with an unknown kind there is nothing to check it against.
    throw new ValidationError([
      {
        loc: ['path', 'kind'],
        msg: `kind must be one of ${COMPONENT_KINDS.join(', ')} (npm is the JavaScript registry); got ${JSON.stringify(String(kind ?? '').slice(0, 60))}`,
        type: 'value_error.component_kind',
      },
    ]);
  }
  if (id === undefined || id.trim() === '') {
    throw new ValidationError([
      { loc: ['path', 'id'], msg: `id is required: /v1/…/${k}/{id}, for example ${EXAMPLE[k]}`, type: 'missing' },
    ]);
  }
  try {
    return normaliseComponent(k, id);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.issues.map((i) => ({ ...i, loc: ['path', i.loc[0] === 'kind' ? 'kind' : 'id'] })));
  }
}

const EXAMPLE: Record<ComponentRef['kind'], string> = {
  github: 'expressjs%2Fexpress',
  npm: 'express or %40babel%2Fcore',
  pypi: 'requests',
  docker: 'node:18-alpine',
  maven: 'org.apache.commons%3Acommons-lang3',
  golang: 'github.com%2Fsirupsen%2Flogrus',
  gem: 'rails',
  cargo: 'serde',
  nuget: 'newtonsoft.json',
  composer: 'monolog%2Fmonolog',
  distro: 'debian%2F12',
};

export interface TrustFacts extends EntityResult, Omit<EntitySeries, 'series'> {
  score_computed: false;
  evidence_age_days: number | null;
  adoption: { dependents: number | null; read_date: string; source: string; leaf_index: number } | null;
  chain: { leaf_index: number; tree_size: number; inclusion_proof: string[]; checkpoint: string } | null;
  verdict?: Verdict;
  note: string;
  license: typeof DATA_LICENSE;
}

/** GET /v1/trust_score/{kind}/{id}: the facts a trust decision rests on, and a statement that no score is computed. */
export async function trustFacts(
  deps: RecordDeps,
  ref: ComponentRef,
  verdicts?: VerdictService | null,
): Promise<TrustFacts> {
  const today = utcDateOf(deps.clock.now());
  const observations = await deps.store.observationsOf(ref);
  const result = entityResult(ref, observations, null, today);
  const { series: _series, ...history } = entitySeries(observations, today);
  const census = await deps.store.latestCensus(ref);
  const head = await deps.store.latestHead();
  let chain: TrustFacts['chain'] = null;
  if (result.leaf_index !== null && head && result.leaf_index < head.tree_size) {
    const proof = await readInclusionProof(deps, result.leaf_index, head.tree_size);
    chain = {
      leaf_index: proof.index,
      tree_size: proof.size,
      inclusion_proof: proof.hashes,
      checkpoint: head.checkpoint,
    };
  }
  const facts: TrustFacts = {
    ...result,
    ...history,
    score_computed: false,
    evidence_age_days: result.observation_date === null ? null : daysBetween(result.observation_date, today),
    adoption: census
      ? {
          dependents: census.dependents,
          read_date: census.read_date,
          source: census.source,
          leaf_index: census.leaf_index,
        }
      : null,
    chain,
    note: result.note ? `${result.note} ${NO_SCORE}` : NO_SCORE,
    license: DATA_LICENSE,
  };
  if (verdicts && head) facts.verdict = await verdicts.sign(ref, result, head);
  return facts;
}

/** One observation's reading of the declared interface; null fields were not read that day. */
export interface InterfaceRow {
  observation_date: string;
  leaf_index: number;
  state: string;
  latest_version: EvidenceValue;
  interface: EvidenceValue | null;
}

export interface SchemaHistory {
  purl: [string, string];
  kind: ComponentRef['kind'];
  as_of: string;
  read_for_kind: boolean;
  history: InterfaceRow[];
  /** Each dated change of a declared fact, dated to the first observation that read the new value. */
  changes: { observed: string; leaf_index: number; field: string; from: EvidenceValue; to: EvidenceValue }[];
  note: string;
  license: typeof DATA_LICENSE;
}

/** GET /v1/schema_history/{kind}/{id}: the dated history of the declared interface facts, as read. */
export async function schemaHistory(deps: RecordDeps, ref: ComponentRef): Promise<SchemaHistory> {
  const today = utcDateOf(deps.clock.now());
  const observations = effectiveObservations(await deps.store.observationsOf(ref));
  const readForKind = ref.kind === 'npm';
  const history: InterfaceRow[] = readForKind
    ? observations.map((o) => ({
        observation_date: o.observation_date,
        leaf_index: o.leaf_index,
        state: o.state,
        latest_version: evidenceField(o, 'latest_version'),
        interface: evidenceField(o, 'interface'),
      }))
    : [];
  const changes: SchemaHistory['changes'] = [];
  let previous: Record<string, EvidenceValue> | null = null;
  for (const row of history) {
    const current = row.interface as Record<string, EvidenceValue> | null;
    // A day whose read carried no interface (a failed check, an older reader) neither makes nor breaks a change.
    if (current === null || typeof current !== 'object') continue;
    if (previous) {
      for (const field of new Set([...Object.keys(previous), ...Object.keys(current)])) {
        const from = previous[field] ?? null;
        const to = current[field] ?? null;
        if (JSON.stringify(from) !== JSON.stringify(to))
          changes.push({ observed: row.observation_date, leaf_index: row.leaf_index, field, from, to });
      }
    }
    previous = current;
  }
  const note = !readForKind
    ? `Tended reads declared interface facts (license, engines, exports/types, deprecation) for npm packages only; it holds none for a ${ref.kind} component. Not checked, never "gone".`
    : observations.length === 0
      ? `Tended holds no observation of ${ref.id}: not checked, never "gone".`
      : 'One row per observation date, as the registry declared the latest version that day; interface null means that read carried none (a failed check, or a read made before these facts were kept).';
  return {
    purl: componentPurls(ref),
    kind: ref.kind,
    as_of: today,
    read_for_kind: readForKind,
    history,
    changes,
    note,
    license: DATA_LICENSE,
  };
}

export interface DependencyRisk {
  purl: [string, string];
  kind: ComponentRef['kind'];
  as_of: string;
  /** The observation the dependency list was read from; null when none carries one. */
  read_from: { observation_date: string; leaf_index: number; latest_version: EvidenceValue } | null;
  dependencies_count: number | null;
  dependencies: (EntityResult & { name: string })[];
  unresolved: { name: string; reason: string }[];
  /** How many direct dependencies are held in each state: counts, not a score. */
  states: Partial<Record<EntityResult['state'], number>>;
  note: string;
  license: typeof DATA_LICENSE;
}

/** GET /v1/dependency_risk/{kind}/{id}: the held state of each direct dependency of the latest version. */
export async function dependencyRisk(deps: RecordDeps, ref: ComponentRef): Promise<DependencyRisk> {
  const today = utcDateOf(deps.clock.now());
  const observations = effectiveObservations(await deps.store.observationsOf(ref));
  const source = [...observations].reverse().find((o) => Array.isArray(evidenceField(o, 'dependencies')));
  const base = { purl: componentPurls(ref), kind: ref.kind, as_of: today, license: DATA_LICENSE } as const;
  if (!source) {
    const why =
      ref.kind !== 'npm'
        ? `Tended reads direct dependencies for npm packages only; it holds none for a ${ref.kind} component.`
        : observations.length === 0
          ? `Tended holds no observation of ${ref.id}: its dependencies are not observed (not checked, never "gone").`
          : `No observation of ${ref.id} carries its dependency list yet: not observed.`;
    return {
      ...base,
      read_from: null,
      dependencies_count: null,
      dependencies: [],
      unresolved: [],
      states: {},
      note: `${why} ${NO_SCORE}`,
    };
  }
  const names = (evidenceField(source, 'dependencies') as EvidenceValue[]).filter(
    (n): n is string => typeof n === 'string',
  );
  const refs: { name: string; ref: ComponentRef }[] = [];
  const unresolved: DependencyRisk['unresolved'] = [];
  for (const name of names) {
    try {
      refs.push({ name, ref: normaliseComponent('npm', name) });
    } catch {
      unresolved.push({ name, reason: 'not a valid npm package name' });
    }
  }
  const held = await deps.store.observationsOfMany(refs.map((r) => r.ref));
  const states: DependencyRisk['states'] = {};
  const dependencies = refs.map(({ name, ref: dep }) => {
    const result = entityResult(dep, held.get(`${dep.kind}:${dep.id}`) ?? [], null, today);
    states[result.state] = (states[result.state] ?? 0) + 1;
    return { name, ...result };
  });
  return {
    ...base,
    read_from: {
      observation_date: source.observation_date,
      leaf_index: source.leaf_index,
      latest_version: evidenceField(source, 'latest_version'),
    },
    dependencies_count: names.length,
    dependencies,
    unresolved,
    states,
    note: `Each dependency is what the record holds for it today; one Tended holds nothing for is "not checked" (state not_observed), never "gone". ${NO_SCORE}`,
  };
}

function evidenceField(o: Observation, field: string): EvidenceValue {
  const e = o.evidence as Record<string, EvidenceValue> | null;
  return e && typeof e === 'object' && field in e ? e[field]! : null;
}
