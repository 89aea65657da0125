/**
 * The successor a registry's own declaration names (DESIGN §8e), read out of the evidence a
 * reading stored, at answer time: old leaves answer too, and no leaf changes form. Each registry's
 * structured field is taken as it is (NuGet's alternatePackage, Packagist's abandoned, Maven's
 * relocation); a free-text message (npm's deprecation, PEP 792's reason) names one only in the
 * forms of `namedInText` below, and never when it names more than one. RustSec's advisories
 * carry no structured alternative in OSV, so a crate's answer names none.
 */
import { normaliseComponent, type ComponentKind, type ComponentRef } from './component.js';
import type { EvidenceValue } from './observation.js';

export interface Successor {
  kind: ComponentKind;
  name: string;
}

type Evidence = Record<string, EvidenceValue>;

/** The successor the evidence of one reading names for `ref`, or null. Pure, linear in the evidence. */
export function successorOf(ref: ComponentRef, evidence: Evidence | null): Successor | null {
  if (!evidence) return null;
  const named = SUCCESSOR_READERS[ref.kind]?.(evidence, ref) ?? null;
  if (!named) return null;
  const valid = validName(ref.kind, named);
  // A declaration that names the component itself ("update to mkdirp 1.x") names no successor.
  return valid !== null && valid !== ref.id ? { kind: ref.kind, name: valid } : null;
}

const SUCCESSOR_READERS: Partial<Record<ComponentKind, (e: Evidence, ref: ComponentRef) => string | null>> = {
  npm: (e) => (typeof e['deprecated'] === 'string' ? namedInText(e['deprecated'], 'npm') : null),
  pypi: (e) =>
    typeof e['project_status_reason'] === 'string' && e['project_status'] !== 'active'
      ? namedInText(e['project_status_reason'], 'pypi')
      : null,
  nuget: (e) => (typeof e['alternate_package'] === 'string' ? e['alternate_package'] : null),
  // Composer's schema: `abandoned` is true, or the name of the package suggested instead.
  composer: (e) => (typeof e['abandoned'] === 'string' ? e['abandoned'] : null),
  maven: relocationTarget,
};

/** Maven's <relocation>: a groupId or artifactId left out keeps the artifact's own. */
function relocationTarget(e: Evidence, ref: ComponentRef): string | null {
  const r = e['relocated'];
  if (typeof r !== 'object' || r === null || Array.isArray(r)) {
    // Only `relocated_to` ("group:artifact[:version]"), as some recorded leaves hold it.
    const to = typeof e['relocated_to'] === 'string' ? e['relocated_to'].split(':') : [];
    return to.length >= 2 ? `${to[0]}:${to[1]}` : null;
  }
  const [group = '', artifact = ''] = ref.id.split(':');
  const g = typeof r['group_id'] === 'string' ? r['group_id'] : group;
  const a = typeof r['artifact_id'] === 'string' ? r['artifact_id'] : artifact;
  return `${g}:${a}`;
}

function validName(kind: ComponentKind, name: string): string | null {
  try {
    return normaliseComponent(kind, name).id;
  } catch {
    return null;
  }
}

/**
 * Words that follow "use", "moved to", "is now"… in deprecation messages without being a package:
 * "do not use it", "is now deprecated", "use your platform's native…", "moved to npm install x".
 */
const NOT_A_PACKAGE = new Set([
  'a',
  'an',
  'the',
  'it',
  'this',
  'that',
  'these',
  'them',
  'your',
  'our',
  'their',
  'its',
  'one',
  'another',
  'something',
  'native',
  'latest',
  'newer',
  'new',
  'version',
  'versions',
  'deprecated',
  'unmaintained',
  'obsolete',
  'archived',
  'maintained',
  'supported',
  'available',
  'part',
  'instead',
  'npm',
  'pip',
  'yarn',
  'github',
  'gitlab',
  'and',
  'or',
]);

const QUOTES = new Set(['"', "'", '`', '\u2018', '\u2019', '\u201c', '\u201d']);
/** Trailing punctuation that ends a clause or sentence after a name ("renamed to pug,"). */
const CLAUSE_END = new Set(['.', ',', ';', ':', '!', '?', ')']);
const SENTENCE_END = new Set(['.', ';', '!', '?']);

interface Token {
  /** Lower-cased, quotes and clause punctuation stripped. */
  word: string;
  /** As written, quotes and punctuation stripped (a PyPI name keeps its case for validation). */
  raw: string;
  /** Wrapped in quotes or backticks: `sass`, 'coffeescript'. */
  quoted: boolean;
  /** Followed by clause punctuation, or the message's last word. */
  clauseEnd: boolean;
  sentenceEnd: boolean;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  const parts = text.slice(0, 2_000).split(/\s+/);
  let lastPart = parts.length - 1;
  while (lastPart > 0 && parts[lastPart] === '') lastPart--;
  for (let i = 0; i < parts.length; i++) {
    let s = parts[i] ?? '';
    let end = '';
    while (s.length > 0 && CLAUSE_END.has(s.at(-1) ?? '')) {
      end = s.at(-1) ?? '';
      s = s.slice(0, -1);
    }
    const quoted = s.length >= 2 && QUOTES.has(s[0] ?? '') && QUOTES.has(s.at(-1) ?? '');
    let from = 0;
    let to = s.length;
    while (from < to && QUOTES.has(s[from] ?? '')) from++;
    while (to > from && QUOTES.has(s[to - 1] ?? '')) to--;
    // Punctuation inside the closing quote: "'tar'." and "`sass`,".
    let raw = s.slice(from, to);
    while (raw.length > 0 && CLAUSE_END.has(raw.at(-1) ?? '')) {
      end ||= raw.at(-1) ?? '';
      raw = raw.slice(0, -1);
    }
    if (raw === '') continue;
    const last = i >= lastPart;
    out.push({
      word: raw.toLowerCase(),
      raw,
      quoted,
      clauseEnd: end !== '' || last,
      sentenceEnd: SENTENCE_END.has(end) || last,
    });
  }
  return out;
}

/** Phrases after which the next word is the name, and how strongly they name one. */
const STRONG_AFTER: readonly (readonly string[])[] = [
  ['moved', 'to'],
  ['renamed', 'to'],
  ['replaced', 'by'],
  ['superseded', 'by'],
  ['favor', 'of'],
  ['favour', 'of'],
];
/** Weaker phrases: the name must look like one (quoted, scoped, or with "-", "." or a digit). */
const WEAK_AFTER: readonly (readonly string[])[] = [
  ['is', 'now'],
  ['switch', 'to'],
  ['migrate', 'to'],
  ['merged', 'into'],
];
const INSTALL_COMMANDS: Record<'npm' | 'pypi', readonly (readonly string[])[]> = {
  npm: [
    ['npm', 'install'],
    ['npm', 'i'],
    ['yarn', 'add'],
  ],
  pypi: [['pip', 'install']],
};
/** Words between "use X" and "instead" that still leave X the package: "use uuid module instead". */
const NOUNS = new Set(['package', 'module', 'library', 'crate', 'project']);

function follows(ts: readonly Token[], i: number, phrase: readonly string[]): boolean {
  if (i < phrase.length) return false;
  for (let k = 0; k < phrase.length; k++) if (ts[i - phrase.length + k]?.word !== phrase[k]) return false;
  return true;
}

function looksLikeName(t: Token): boolean {
  if (t.quoted || t.word.startsWith('@')) return true;
  for (const c of t.word) if (c === '-' || c === '.' || (c >= '0' && c <= '9')) return true;
  return false;
}

/**
 * The one package a free-text declaration names, in these forms only (case-insensitive):
 * - "use X instead" (also "use the X package instead", "use X module instead"), or "use X" ending
 *   a sentence when X is quoted, scoped, or has a "-", "." or digit ("Please use eslint-webpack-plugin");
 * - "moved to X", "renamed to X", "replaced by X", "superseded by X", "in favor/favour of X";
 * - "is now X", "switch to X", "migrate to X", "merged into X" when X is quoted, scoped, or has a "-",
 *   "." or digit ("babel-eslint is now @babel/eslint-parser");
 * - an install command: "npm install X", "npm i X", "yarn add X" (npm), "pip install X" (PyPI).
 * X must then be a valid name of that registry, and for npm lower-case (npm refuses capitals in new
 * names, so "in favor of ESLint" names a product, not a package). No successor when the text names
 * two different packages ("use `sass` or `sass-embedded` instead"), or none. One pass over the words.
 */
export function namedInText(text: string, registry: 'npm' | 'pypi'): string | null {
  const ts = tokens(text);
  const found = new Set<string>();
  const take = (t: Token | undefined, strict: boolean) => {
    if (!t || NOT_A_PACKAGE.has(t.word)) return;
    if (strict && !looksLikeName(t)) return;
    if (registry === 'npm' && t.raw !== t.word) return;
    const name = validName(registry, t.raw);
    if (name !== null) found.add(name);
  };
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    if (!t) continue;
    if (STRONG_AFTER.some((p) => follows(ts, i, p))) take(t, false);
    else if (WEAK_AFTER.some((p) => follows(ts, i, p))) take(t, true);
    else if (INSTALL_COMMANDS[registry].some((p) => follows(ts, i, p))) take(t, false);
    else if (ts[i - 1]?.word === 'use') {
      const article = t.word === 'the' ? 1 : 0;
      const x = ts[i + article];
      if (!x) continue;
      let j = i + article + 1;
      if (!x.clauseEnd && NOUNS.has(ts[j]?.word ?? '') && !ts[j]?.clauseEnd) j++;
      if (!x.clauseEnd && ts[j]?.word === 'instead') take(x, false);
      else if (x.sentenceEnd && x.word !== 'instead') take(x, true);
    }
  }
  return found.size === 1 ? ([...found][0] ?? null) : null;
}

/** A successor as every report names it: `npm:@eslint/config-array`. */
export function successorInWords(successor: Successor | undefined): string {
  return successor ? `${successor.kind}:${successor.name}` : '';
}
