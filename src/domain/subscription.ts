/**
 * Subscriptions (DESIGN §8f): what a subscriber watches, in public names only, and which state
 * changes that matches. A filter is stored as a list of targets (`c:kind:id`, `o:kind:owner`,
 * `s:state`); a change is matched by the targets it names, so matching is a lookup of a few keys
 * in an index whatever the number of subscriptions.
 */
import {
  componentOwner,
  isComponentKind,
  normaliseComponent,
  type ComponentKind,
  type ComponentRef,
} from './component.js';
import { ValidationError, quoteInput, type ValidationIssue } from './errors.js';
import { componentFromPurl } from './purl-component.js';
import { ASSERTED_STATES, type AssertedState } from './state.js';

/** Names one subscription may watch: bounds the targets a subscription writes and a GET returns. */
export const SUBSCRIPTION_COMPONENTS_MAX = 1_000;
export const SUBSCRIPTION_OWNERS_MAX = 100;
/** Subscriptions one API key may hold at once. */
export const SUBSCRIPTIONS_PER_KEY_MAX = 25;
/** An endpoint URL longer than this is refused (no real receiver needs more). */
export const ENDPOINT_MAX_CHARS = 2_000;

export interface OwnerNamespace {
  kind: ComponentKind;
  owner: string;
}

export interface SubscriptionFilter {
  components: ComponentRef[];
  owners: OwnerNamespace[];
  states: AssertedState[];
}

const componentTarget = (ref: ComponentRef) => `c:${ref.kind}:${ref.id}`;
const ownerTarget = (kind: string, owner: string) => `o:${kind}:${owner}`;
const stateTarget = (state: string) => `s:${state}`;

/** The index keys a filter is stored under. */
export function filterTargets(filter: SubscriptionFilter): string[] {
  return [
    ...new Set([
      ...filter.components.map(componentTarget),
      ...filter.owners.map((o) => ownerTarget(o.kind, o.owner)),
      ...filter.states.map(stateTarget),
    ]),
  ];
}

/** The keys a state change of `ref` into `to` matches: its component, its owner, its new state. */
export function changeTargets(ref: ComponentRef, to: AssertedState): string[] {
  const owner = componentOwner(ref);
  return [componentTarget(ref), ...(owner ? [ownerTarget(ref.kind, owner)] : []), stateTarget(to)];
}

/** `kind/name` or a `pkg:` purl, as the project's parsers read them. */
export function parseWatchedComponent(raw: string): ComponentRef {
  if (raw.startsWith('pkg:')) return componentFromPurl(raw);
  const slash = raw.indexOf('/');
  if (slash <= 0)
    throw new ValidationError([
      {
        loc: [],
        msg: `a component is a purl (pkg:npm/left-pad) or kind/name (npm/left-pad, github/expressjs/express); got ${quoteInput(raw)}`,
        type: 'value_error.component',
      },
    ]);
  return normaliseComponent(raw.slice(0, slash), raw.slice(slash + 1));
}

/**
 * `kind/owner`: a GitHub owner (`github/acme`), an npm scope (`npm/@acme`), a Maven group, a
 * Composer vendor, an image namespace (`docker/docker.io/bitnami`). The owner is normalised as a
 * component under it would be, so `github/ACME` and `github/acme` are one namespace.
 */
export function parseOwnerNamespace(raw: string): OwnerNamespace {
  const slash = raw.indexOf('/');
  const kind = slash > 0 ? raw.slice(0, slash).toLowerCase() : '';
  const owner = slash > 0 ? raw.slice(slash + 1) : '';
  const refuse = (why: string) =>
    new ValidationError([{ loc: [], msg: `${why}; got ${quoteInput(raw)}`, type: 'value_error.owner' }]);
  if (!isComponentKind(kind) || owner === '') throw refuse('an owner is kind/owner, such as github/acme or npm/@acme');
  let normalised: string;
  try {
    normalised = componentOwner(normaliseComponent(kind, kind === 'maven' ? `${owner}:x` : `${owner}/x`));
  } catch {
    throw refuse(
      ownerless(kind)
        ? `${kind} names have no owner namespace; name the components instead`
        : `${owner} is not an owner namespace of ${kind} names`,
    );
  }
  if (normalised === '') throw refuse(`${kind} names have no owner namespace; name the components instead`);
  return { kind, owner: normalised };
}

/** A kind whose plain names have no owner part (PyPI, crates, gems…). */
function ownerless(kind: ComponentKind): boolean {
  try {
    return componentOwner(normaliseComponent(kind, 'x')) === '';
  } catch {
    return false;
  }
}

/** Reads a subscription body's filter, every bad entry named at its place; nothing is stored on failure. */
export function parseSubscriptionFilter(body: {
  components?: unknown;
  owners?: unknown;
  states?: unknown;
}): SubscriptionFilter {
  const issues: ValidationIssue[] = [];
  const list = (name: string, value: unknown, max: number): unknown[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      issues.push({ loc: ['body', name], msg: `${name} must be a list of strings`, type: 'type_error.list' });
      return [];
    }
    if (value.length > max) {
      issues.push({
        loc: ['body', name],
        msg: `at most ${max} ${name} per subscription; got ${value.length}. Split them over several subscriptions`,
        type: 'value_error.too_many',
      });
      return [];
    }
    return value;
  };
  const each = <T>(name: string, values: unknown[], parse: (raw: string) => T): T[] =>
    values.flatMap((raw, i) => {
      if (typeof raw !== 'string') {
        issues.push({ loc: ['body', name, i], msg: `each of ${name} must be a string`, type: 'type_error.str' });
        return [];
      }
      try {
        return [parse(raw.trim())];
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        issues.push(...e.issues.map((issue) => ({ ...issue, loc: ['body', name, i] })));
        return [];
      }
    });
  const components = each(
    'components',
    list('components', body.components, SUBSCRIPTION_COMPONENTS_MAX),
    parseWatchedComponent,
  );
  const owners = each('owners', list('owners', body.owners, SUBSCRIPTION_OWNERS_MAX), parseOwnerNamespace);
  const states = each('states', list('states', body.states, ASSERTED_STATES.length), (raw) => {
    if (!(ASSERTED_STATES as readonly string[]).includes(raw))
      throw new ValidationError([
        {
          loc: [],
          msg: `a state is one of ${ASSERTED_STATES.join(', ')} (not_observed is never a change); got ${quoteInput(raw)}`,
          type: 'value_error.state',
        },
      ]);
    return raw as AssertedState;
  });
  if (issues.length === 0 && components.length + owners.length + states.length === 0)
    issues.push({
      loc: ['body'],
      msg: 'name what to watch: components (purls or kind/name), owners (kind/owner) or states (e.g. archived, deleted)',
      type: 'value_error.empty',
    });
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    components: dedupe(components, componentTarget),
    owners: dedupe(owners, (o) => ownerTarget(o.kind, o.owner)),
    states: [...new Set(states)],
  };
}

function dedupe<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/**
 * The endpoint's shape: an absolute https URL (http only where the operator allows private
 * addresses, for receivers inside one network), no user name or password in it (a credential
 * would be stored and shown back), no fragment. Where it points is checked by the sender's
 * address rules (operations/webhook-address.ts), at subscription time and at each send.
 */
export function parseEndpoint(raw: unknown, allowHttp: boolean): URL {
  const refuse = (msg: string) =>
    new ValidationError([{ loc: ['body', 'endpoint'], msg, type: 'value_error.endpoint' }]);
  if (typeof raw !== 'string' || raw === '') throw refuse('endpoint must be the https:// URL deliveries are POSTed to');
  if (raw.length > ENDPOINT_MAX_CHARS) throw refuse(`endpoint is longer than ${ENDPOINT_MAX_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`endpoint is not an absolute URL; got ${quoteInput(raw)}`);
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:'))
    throw refuse(
      `endpoint must be an https:// URL (deliveries are signed, but their content should not travel in clear); got ${url.protocol}//`,
    );
  if (url.username !== '' || url.password !== '')
    throw refuse('endpoint must not carry a user name or password; authenticate deliveries by their signature');
  if (url.hash !== '') throw refuse('endpoint must not carry a #fragment');
  return url;
}
