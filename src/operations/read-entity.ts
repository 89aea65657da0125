import { AnswerCache, weakTag } from './answer-cache.js';
import {
  componentOwner,
  isGithubOwner,
  normaliseComponent,
  type ComponentKind,
  type ComponentRef,
} from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import { DATA_LICENSE, entitySeries, resolvedResult, type EntityResult, type EntitySeries } from './entity-answer.js';
import { resolveAsOf, type DatedRead, type Resolution } from '../domain/as-of.js';
import type { Observation, SeriesEntry } from '../domain/observation.js';
import type { SeriesAt } from '../storage/store.js';
import { ownerNote, queueNamed, queueOwnerNamed, unheldNote, type DiscoveryDeps } from './discovery.js';
import type { VerdictService } from './verdict.js';
import type { Verdict } from '../notary/verdict.js';
import type { HeadBlock } from '../notary/head.js';

export type EntityAnswer = EntityResult &
  EntitySeries & { see_also?: HeldPackage; verdict?: Verdict; license: typeof DATA_LICENSE };

/** Where the record's answer for a package is, when a repository read named it as `{registry}/{name}`. */
export interface HeldPackage {
  kind: ComponentKind;
  id: string;
  /** The package's JSON answer: its facts, with its state and the evidence. */
  facts: string;
  page: string;
  badge: string;
}

/**
 * The registries whose package names can be read as `/api/v1/entity/{registry}/{name}`: one path
 * segment, spelt as a GitHub repository name may be. (A Maven, Composer, Go or image name has more
 * parts, or characters no repository name has, and never reaches this path whole.)
 */
const ONE_NAME_REGISTRIES: ReadonlySet<string> = new Set<ComponentKind>(['npm', 'pypi', 'cargo', 'gem', 'nuget']);

/**
 * The package a read of the unheld repository `owner/repo` most likely meant: `npm/left-padded` is
 * npm's left-padded when the record holds it. Null otherwise. One indexed lookup, only for an
 * owner that is a registry's name; a held repository never gets here, so the hot path is untouched.
 */
async function heldPackageNamed(deps: DiscoveryDeps, ref: ComponentRef): Promise<HeldPackage | null> {
  const [owner, name] = ref.id.split('/') as [string, string];
  if (!ONE_NAME_REGISTRIES.has(owner)) return null;
  let pkg: ComponentRef;
  try {
    pkg = normaliseComponent(owner, name);
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
  if ((await deps.store.componentVersion(pkg)) === null) return null;
  return {
    kind: pkg.kind,
    id: pkg.id,
    facts: `/v1/trust_score/${pkg.kind}/${pkg.id}`,
    page: `/${pkg.kind}/${pkg.id}`,
    badge: `/badge/${pkg.kind}/${pkg.id}.svg`,
  };
}

/** GET /api/v1/entity/{owner}/{repo}: one repository's answer at as_of, with its dated series. */
export async function readEntity(
  deps: DiscoveryDeps,
  owner: string,
  repo: string,
  { asOf, today }: DatedRead,
  verdicts?: VerdictService | null,
): Promise<EntityAnswer> {
  const ref = repositoryRef(owner, repo);
  // With verdicts, the head is read first: the observations read after it are all in its tree or newer.
  const head = verdicts ? await verdicts.head() : null;
  const answer = await entityAnswer(deps, ref, asOf, today, await deps.store.seriesAt(ref, asOf ?? today));
  if (verdicts && head) answer.verdict = await verdicts.sign(ref, answer, head);
  return answer;
}

/** The answer at as_of from the component's series and the reading its store sent with it. */
async function entityAnswer(
  deps: DiscoveryDeps,
  ref: ComponentRef,
  asOf: string | null,
  today: string,
  { series, reading }: SeriesAt,
): Promise<EntityAnswer> {
  const resolution = resolveAsOf(series, asOf, today);
  const result = resolvedResult(ref, await withObservation(deps, ref, resolution, reading));
  // A read naming a component the record does not hold queues it (DESIGN §3 "Discovery").
  let seeAlso: HeldPackage | null = null;
  if (series.length === 0) {
    // Still queued when the name is also a package the record holds: this path is GitHub's (spec
    // §4.1), `npm/cli` is a real repository, and a guess GitHub does not show is forgotten with no
    // trace (DESIGN §3 "Discovery"), so queueing costs one read and never a record.
    const status = await queueNamed(deps, ref);
    result.note = unheldNote(ref, result.as_of, status);
    if (status === 'queued') result.queued = true;
    seeAlso = ref.kind === 'github' ? await heldPackageNamed(deps, ref) : null;
    if (seeAlso)
      result.note =
        `This path reads GitHub repositories, and ${ref.id} is read here as one. The record holds the ${seeAlso.kind} package ${seeAlso.id}: ` +
        `its answer is at ${seeAlso.facts}, its page at ${seeAlso.page} (see_also). ${result.note}`;
  }
  return {
    ...result,
    ...(seeAlso ? { see_also: seeAlso } : {}),
    ...entitySeries(series, result.as_of),
    license: DATA_LICENSE,
  };
}

/**
 * The resolution with its reading whole. The store sends the latest reading on or before the date
 * with the series; only where a correction gives the date its reading is the correction read
 * apart. A correction answers for the date it corrects, so the reading keeps the date the series
 * gave it.
 */
async function withObservation(
  deps: DiscoveryDeps,
  ref: ComponentRef,
  r: Resolution<SeriesEntry>,
  reading: Observation | null,
): Promise<Resolution> {
  if (r.observation === null) return { ...r, observation: null };
  const whole =
    reading?.leaf_index === r.observation.leaf_index
      ? reading
      : await deps.store.observationAt(ref, r.observation.leaf_index);
  // The series and the row come from two reads; a leaf never changes once appended, so only a
  // store that lost the row between them could miss it.
  if (whole === null) throw new Error(`observation ${r.observation.leaf_index} of ${ref.kind}:${ref.id} vanished`);
  return { ...r, observation: { ...whole, observation_date: r.observation.observation_date } };
}

/** An entity answer serialised once, and the tag that names the data it was computed from. */
export interface EntityJson {
  /** UTF-8 JSON, encoded once: the hot path writes these bytes as they are. */
  json: Uint8Array<ArrayBuffer>;
  etag: string;
  /** The component's version (its latest leaf) the answer was computed from; none when unheld. */
  version?: number;
}

/**
 * readEntity through a cache of serialised answers. A cached answer holds while the component's
 * version (its latest leaf) is the one it was computed from, so its bytes are exactly what
 * readEntity would compute now; otherwise one query brings what the answer needs.
 */
export async function readEntityJson(
  deps: DiscoveryDeps,
  cache: AnswerCache<EntityJson>,
  owner: string,
  repo: string,
  { asOf, today }: DatedRead,
  verdicts?: VerdictService | null,
): Promise<EntityJson> {
  const ref = repositoryRef(owner, repo);
  // A signed answer names the head it was proven under, so it is signed once per head; the
  // readings read after the head are all in its tree or newer.
  const head = verdicts ? await verdicts.head() : null;
  const held = await heldAnswer(deps, cache, ref, asOf, today, verdicts && head ? { verdicts, head } : null);
  if (held) return held;
  // Unheld: the answer depends on the watch list too (queued or not), and reading it queues; not cached.
  const entity = await entityAnswer(deps, ref, asOf, today, { series: [], reading: null });
  if (verdicts && head) entity.verdict = await verdicts.sign(ref, entity, head);
  const json = new TextEncoder().encode(JSON.stringify(entity));
  return { json, etag: weakTag(json) };
}

/**
 * The answer for a read of a held component, from the cache or computed and cached; undefined
 * when the read is malformed or names a component the record does not hold: the hot path then
 * hands the request to the route, which explains what is wrong or queues the name. Unsigned.
 */
export async function heldEntityJson(
  deps: DiscoveryDeps,
  cache: AnswerCache<EntityJson>,
  owner: string,
  repo: string,
  { asOf, today }: DatedRead,
): Promise<EntityJson | undefined> {
  let ref: ComponentRef;
  try {
    ref = normaliseComponent('github', `${owner}/${repo}`);
  } catch (error) {
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
  return heldAnswer(deps, cache, ref, asOf, today, null);
}

/**
 * A cached answer while the component's version is the one it was computed from (one indexed
 * lookup, which the SQLite store answers from memory); otherwise the series and its reading in one
 * query, the answer computed and cached. Undefined when the record holds nothing for the component.
 */
async function heldAnswer(
  deps: DiscoveryDeps,
  cache: AnswerCache<EntityJson>,
  ref: ComponentRef,
  asOf: string | null,
  today: string,
  signing: { verdicts: VerdictService; head: HeadBlock } | null,
): Promise<EntityJson | undefined> {
  const key = entityKey(ref, asOf, today, signing?.head.tree_size);
  const cached = cache.get(key);
  if (cached) {
    if (cached.version === (await deps.store.componentVersion(ref))) return cached;
    cache.stale();
  }
  const rows = await deps.store.seriesAt(ref, asOf ?? today);
  const version = rows.series.at(-1)?.leaf_index;
  if (version === undefined) return undefined;
  const entity = await entityAnswer(deps, ref, asOf, today, rows);
  if (signing) entity.verdict = await signing.verdicts.sign(ref, entity, signing.head);
  const answer: EntityJson = {
    json: new TextEncoder().encode(JSON.stringify(entity)),
    // The tag names what the answer was computed from: the read, the version and the head.
    etag: weakTag(`${key}|${version}`),
    version,
  };
  cache.set(key, answer);
  return answer;
}

/** Without as_of the answer is as of today, and staleness moves with the calendar. */
function entityKey(ref: ComponentRef, asOf: string | null, today: string, headSize: number | undefined): string {
  return `${ref.kind}:${ref.id}|${asOf ?? `today ${today}`}${headSize !== undefined ? `|head ${headSize}` : ''}`;
}

/** The entity answers cache, bounded by bytes (TENDED_ANSWER_CACHE_BYTES) as well as entries. */
export function entityAnswerCache(maxBytes: number): AnswerCache<EntityJson> {
  // The entry bound only guards against a flood of tiny answers; bytes are the real limit.
  return new AnswerCache<EntityJson>(1_000_000, { max: maxBytes, sizeOf: entityJsonBytes });
}

/** Bytes an answer holds in memory: its JSON, its tag and its key (UTF-16). */
export function entityJsonBytes(answer: EntityJson, key: string): number {
  return answer.json.byteLength + 2 * (answer.etag.length + key.length) + 64;
}

export interface OrgAnswer {
  org: string;
  as_of: string;
  components_count: number;
  components: (EntityResult & Pick<EntitySeries, 'observations_count' | 'state_changes'>)[];
  note?: string;
  /** Set when this read queued the owner: its public repositories are listed and read within a day. */
  queued?: true;
  license: typeof DATA_LICENSE;
}

/** GET /api/v1/org/{org}: the held observations of every repository under an owner namespace. */
export async function readOrg(deps: DiscoveryDeps, org: string, { asOf, today }: DatedRead): Promise<OrgAnswer> {
  const owner = componentOwner(repositoryRef(org, 'x', 'org'));
  const date = asOf ?? today;
  const held = await deps.store.seriesUnderOwner('github', owner, date);
  const components: OrgAnswer['components'] = [];
  for (const { component, series, reading } of held) {
    const { observations_count, state_changes } = entitySeries(series, date);
    // Repositories first observed after as_of were not held on that date.
    if (observations_count === 0) continue;
    const resolution = await withObservation(deps, component, resolveAsOf(series, asOf, today), reading);
    components.push({ ...resolvedResult(component, resolution), observations_count, state_changes });
  }
  // An owner the record holds nothing under is queued: a pass lists its public repositories (DESIGN §3 "Discovery").
  const status = held.length === 0 ? await queueOwnerNamed(deps, owner) : 'off';
  return {
    org: owner,
    as_of: date,
    components_count: components.length,
    components,
    ...(components.length === 0 ? { note: ownerNote(owner, date, status) } : {}),
    ...(status === 'queued' ? { queued: true as const } : {}),
    license: DATA_LICENSE,
  };
}

/** Validates path parts as a GitHub repository, reporting errors against the path parameter at fault. */
function repositoryRef(owner: string, repo: string, ownerParam: 'owner' | 'org' = 'owner'): ComponentRef {
  try {
    return normaliseComponent('github', `${owner}/${repo}`);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const at = isGithubOwner(owner) ? 'repo' : ownerParam;
    throw new ValidationError(error.issues.map((i) => ({ ...i, loc: ['path', at] })));
  }
}
