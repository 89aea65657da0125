/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for tests: every line is
 * a HELP, a TYPE or a sample; every sample belongs to a family whose TYPE came before it; names
 * and label names are valid; label values are quoted with only \\, \" and \n escaped; values are
 * numbers as Prometheus reads them; a histogram's buckets rise with `le` and end at +Inf, equal to its _count. Anything
 * else throws, naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-z_:][\w:]*$/i;
const LABEL_NAME = /^[a-z_]\w*$/i;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${line}`;
    if (line === '') return;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) {
      const rest = line.slice(7);
      const space = rest.indexOf(' ');
      const name = space === -1 ? rest : rest.slice(0, space);
      const value = space === -1 ? '' : rest.slice(space + 1);
      if (!NAME.test(name)) throw new Error(`bad metric name, ${where}`);
      const family = families.get(name) ?? { name, type: 'untyped' as const, help: '', samples: [] };
      if (line.startsWith('# HELP ')) family.help = value;
      else {
        if (!TYPES.has(value)) throw new Error(`bad type, ${where}`);
        if (family.samples.length > 0) throw new Error(`TYPE after samples, ${where}`);
        family.type = value as Family['type'];
      }
      families.set(name, family);
      return;
    }
    if (line.startsWith('#')) return;
    const sample = parseSample(line, where);
    const family = familyOf(families, sample.name);
    if (!family) throw new Error(`a sample of no declared family, ${where}`);
    family.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const exact = families.get(name);
  if (exact) return exact;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const family = families.get(name.slice(0, -suffix.length));
    if (family && (family.type === 'histogram' || family.type === 'summary')) return family;
  }
  return undefined;
}

function parseSample(line: string, where: string): Sample {
  const brace = line.indexOf('{');
  const firstSpace = line.indexOf(' ');
  const nameEnd = brace !== -1 && (firstSpace === -1 || brace < firstSpace) ? brace : firstSpace;
  if (nameEnd <= 0) throw new Error(`no value, ${where}`);
  const name = line.slice(0, nameEnd);
  if (!NAME.test(name)) throw new Error(`bad metric name, ${where}`);
  const labels: Record<string, string> = {};
  let at = nameEnd;
  if (line[at] === '{') {
    at++;
    while (line[at] !== '}') {
      const eq = line.indexOf('=', at);
      if (eq === -1) throw new Error(`bad labels, ${where}`);
      const label = line.slice(at, eq);
      if (!LABEL_NAME.test(label) || label in labels) throw new Error(`bad label name ${label}, ${where}`);
      if (line[eq + 1] !== '"') throw new Error(`unquoted label value, ${where}`);
      let value = '';
      let j = eq + 2;
      for (;;) {
        const c = line[j];
        if (c === undefined) throw new Error(`unterminated label value, ${where}`);
        if (c === '"') break;
        if (c === '\\') {
          const next = line[j + 1];
          if (next === 'n') value += '\n';
          else if (next === '\\' || next === '"') value += next;
          else throw new Error(`bad escape, ${where}`);
          j += 2;
          continue;
        }
        value += c;
        j++;
      }
      labels[label] = value;
      at = j + 1;
      if (line[at] === ',') at++;
      else if (line[at] !== '}') throw new Error(`bad labels, ${where}`);
    }
    at++;
  }
  if (line[at] !== ' ') throw new Error(`no space before the value, ${where}`);
  const parts = line.slice(at + 1).split(' ');
  if (parts.length > 2) throw new Error(`too many fields, ${where}`);
  const raw = parts[0]!;
  // As Prometheus reads a value (Go's strconv.ParseFloat): a decimal or exponent number, or NaN
  // and ±Inf in any case (prom-client writes "Nan" for a figure not measured yet).
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(raw);
  const value = special
    ? special[2]!.toLowerCase() === 'nan'
      ? NaN
      : special[1] === '-'
        ? -Infinity
        : Infinity
    : /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(raw)
      ? Number(raw)
      : undefined;
  if (value === undefined) throw new Error(`bad value, ${where}`);
  if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`bad timestamp, ${where}`);
  return { name, labels, value };
}

/** Each label set's buckets rise with `le`, the last is +Inf, and it equals the set's _count. */
function checkHistogram(family: Family): void {
  const sets = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const set = sets.get(key) ?? { buckets: [] };
    sets.set(key, set);
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      set.buckets.push([le === '+Inf' ? Infinity : Number(le), s.value]);
    } else if (s.name.endsWith('_count')) set.count = s.value;
  }
  for (const [key, set] of sets) {
    const last = set.buckets.at(-1);
    if (!last || last[0] !== Infinity || last[1] !== set.count)
      throw new Error(`${family.name} ${key}: +Inf bucket and _count disagree`);
    for (let i = 1; i < set.buckets.length; i++) {
      const [le, n] = set.buckets[i]!;
      const [prevLe, prevN] = set.buckets[i - 1]!;
      if (!(le > prevLe) || n < prevN) throw new Error(`${family.name} ${key}: buckets are not cumulative`);
    }
  }
}

/** The sum of a family's samples named `name` whose labels include `match`. */
export function total(families: Map<string, Family>, name: string, match: Record<string, string> = {}): number {
  let sum = 0;
  for (const family of families.values())
    for (const s of family.samples)
      if (s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)) sum += s.value;
  return sum;
}
