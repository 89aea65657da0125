/**
 * GitHub Actions workflows (and composite/docker `action.yml` files): every `uses:` of a step
 * or a job (reusable workflow), and every image named by `docker://`, `container:` or
 * `services:`. The YAML node tree is walked rather than its JS value so each entry keeps its line.
 */
import { isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Alias, LineCounter, Node, YAMLMap } from 'yaml';
import { readYaml } from '../yaml-document.js';
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { InputError, TooComplexError } from '../reference.js';
import { directPlace } from '../direct-place.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../reference.js';

/**
 * GitHub starts no run of a workflow file over 500 KB (docs.github.com/en/actions/reference/limits,
 * "Workflow file size"), so no workflow that runs is larger than this, whichever kilobyte is
 * meant; real ones are a few KB. It bounds what `yaml` is given: it builds a node per scalar,
 * about half a second per MB, and an aliased document is refused only once it is built.
 */
export const MAX_WORKFLOW_BYTES = 512 * 1024;

interface Walk {
  /** The node each alias names: anchors are legitimate in workflows (D parses with aliases on). */
  targets: Map<Alias, Node>;
  lines: LineCounter;
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
  /** The line of the entry being read, set before its reference is pushed. */
  line?: number;
}

export function parseWorkflow(text: string): ParseResult {
  if (text.length > MAX_WORKFLOW_BYTES) {
    throw new TooComplexError(
      `it is ${size(text.length)}, and GitHub runs no workflow file over 500 KB; Tended reads workflow and action files up to ${MAX_WORKFLOW_BYTES / 1024} KB.`,
    );
  }
  // readYaml bounds what aliases expand to, so the walk below may follow every one of them.
  const { doc, lines, targets } = readYaml(text);
  const w: Walk = { targets, lines, references: [], unresolved: [] };
  const root = resolve(w, doc.contents);
  if (!isMap(root)) throw new InputError('not a GitHub Actions workflow: the document is not a YAML mapping');
  const jobs = resolve(w, root.get('jobs', true));
  const runs = resolve(w, root.get('runs', true));
  if (isMap(jobs)) {
    for (const pair of jobs.items) {
      const name = keyText(pair.key);
      const job = resolve(w, pair.value);
      if (isMap(job)) walkJob(w, job, `jobs.${name}`);
    }
  } else if (isMap(runs)) {
    // An action's own action.yml: composite steps, or the image a docker action runs.
    walkSteps(w, resolve(w, runs.get('steps', true)), 'runs.steps');
    const image = runs.get('image', true);
    if (isScalar(image) && typeof image.value === 'string' && image.value.trim().startsWith('docker://')) {
      addUses(w, image.value, `runs.image${at(w, image)}`);
    }
  } else {
    throw new InputError('not a GitHub Actions workflow: no `jobs:` mapping (nor `runs:` of an action.yml)');
  }
  return { format: 'workflow', references: w.references, unresolved: w.unresolved };
}

function walkJob(w: Walk, job: YAMLMap, path: string): void {
  const uses = job.get('uses', true);
  if (uses !== undefined) addUses(w, uses, path + '.uses');
  const container = resolve(w, job.get('container', true));
  if (container) addImageNode(w, container, `${path}.container`);
  const services = resolve(w, job.get('services', true));
  if (isMap(services)) {
    for (const pair of services.items) {
      const svc = resolve(w, pair.value);
      if (svc) addImageNode(w, svc, `${path}.services.${keyText(pair.key)}`);
    }
  }
  walkSteps(w, resolve(w, job.get('steps', true)), `${path}.steps`);
}

function walkSteps(w: Walk, steps: Node | null, path: string): void {
  if (!isSeq(steps)) return;
  steps.items.forEach((item, i) => {
    const step = resolve(w, item);
    if (!isMap(step)) return;
    const uses = step.get('uses', true);
    if (uses !== undefined) addUses(w, uses, `${path}[${i}].uses`);
    // `parallel:` groups hold steps of their own, either directly or under `steps:`.
    const parallel = resolve(w, step.get('parallel', true));
    if (isSeq(parallel)) walkSteps(w, parallel, `${path}[${i}].parallel`);
    else if (isMap(parallel)) walkSteps(w, resolve(w, parallel.get('steps', true)), `${path}[${i}].parallel.steps`);
  });
}

/** `container:`/`services.x:` are an image string or a mapping with `image:`. */
function addImageNode(w: Walk, node: Node, path: string): void {
  if (isMap(node)) {
    const image = node.get('image', true);
    if (image !== undefined) addImage(w, resolve(w, image), `${path}.image`);
    return;
  }
  addImage(w, node, path);
}

function addImage(w: Walk, node: Node | null, path: string): void {
  const location = path + at(w, node);
  w.line = lineOf(w, node);
  const value = scalarText(node);
  if (value === null) {
    w.unresolved.push({
      input: String(nodeSource(node)),
      location,
      reason: 'the image is not a string, so it names no image.',
    });
    return;
  }
  addDocker(w, value.trim(), value.trim(), location);
}

function addDocker(w: Walk, image: string, input: string, location: string): void {
  if (image === '') {
    w.unresolved.push({ input, location, reason: 'the image is empty.' });
    return;
  }
  if (image.includes('${{')) {
    w.unresolved.push({
      input,
      location,
      reason:
        'the image is a `${{ }}` expression, known only when the workflow runs; paste the resolved image to check it.',
    });
    return;
  }
  push(w, 'docker', image, input, location);
}

function addUses(w: Walk, raw: unknown, path: string): void {
  const node = resolve(w, raw);
  const location = path + at(w, node);
  w.line = lineOf(w, node);
  const text = scalarText(node);
  if (text === null) {
    w.unresolved.push({
      input: String(nodeSource(node)),
      location,
      reason: '`uses:` is not a string, so it names no action.',
    });
    return;
  }
  const uses = text.trim();
  if (uses.includes('${{')) {
    w.unresolved.push({
      input: uses,
      location,
      reason: 'this `uses:` is a `${{ }}` expression, known only when the workflow runs.',
    });
    return;
  }
  if (
    uses.startsWith('./') ||
    uses.startsWith('../') ||
    uses.startsWith('.\\') ||
    uses.startsWith('$/') ||
    uses === '.'
  ) {
    w.unresolved.push({
      input: uses,
      location,
      reason: 'a local action or workflow in this repository, not a separate component.',
    });
    return;
  }
  if (/^docker:\/\//i.test(uses)) {
    addDocker(w, uses.slice('docker://'.length).trim(), uses, location);
    return;
  }
  // The ref may itself contain "@" only in theory; GitHub splits at the last one.
  const atSign = uses.lastIndexOf('@');
  if (atSign <= 0 || atSign === uses.length - 1) {
    w.unresolved.push({
      input: uses,
      location,
      reason: 'a remote action is written owner/repo@ref; this has no ref after "@".',
    });
    return;
  }
  const parts = uses.slice(0, atSign).split('/');
  if (parts.length < 2) {
    w.unresolved.push({
      input: uses,
      location,
      reason: 'a remote action is written owner/repo[/path]@ref; this has no repository.',
    });
    return;
  }
  // The component is the repository; a subpath (owner/repo/dir, or a reusable workflow file) is part of it.
  push(w, 'github', `${parts[0]}/${parts[1]}`, uses, location);
}

function push(w: Walk, kind: 'github' | 'docker', name: string, input: string, location: string): void {
  try {
    w.references.push({
      ref: normaliseComponent(kind, name),
      input,
      location,
      ...(w.line ? { line: w.line } : {}),
      tree: directPlace(),
    });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    w.unresolved.push({ input, location, reason: `not a ${kind} component: ${e.message}` });
  }
}

/** The node itself, or the one an alias names (never an alias: an anchor is put on a node). */
function resolve(w: Walk, node: unknown): Node | null {
  const n = node as Node | null | undefined;
  if (n && isAlias(n)) return w.targets.get(n) ?? null;
  return n ?? null;
}

function scalarText(node: Node | null): string | null {
  return isScalar(node) && typeof node.value === 'string' ? node.value : null;
}

function nodeSource(node: Node | null): string {
  if (isScalar(node)) return String(node.value);
  return node ? node.toString().slice(0, 80) : '';
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function at(w: Walk, node: Node | null): string {
  const line = lineOf(w, node);
  return line === undefined ? '' : ` (line ${line})`;
}

function lineOf(w: Walk, node: Node | null): number | undefined {
  const start = node?.range?.[0];
  return start === undefined ? undefined : w.lines.linePos(start).line;
}

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
