/**
 * The README and docs/ link to each other and into the tree: every relative link must name a file
 * that exists, inside the repository (GitHub cannot follow one out of it), and every #anchor a
 * heading of the target, slugged as GitHub slugs it. External links are listed, never fetched: tests
 * do not reach the internet.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Link {
  file: string;
  line: number;
  target: string;
}

/** The pages this test covers: README.md and every Markdown file under docs/. */
function markdownFiles(root: string): string[] {
  const files = [join(root, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk(join(root, 'docs'));
  return files;
}

/**
 * The lines of a Markdown file that are prose, each with its number: fenced code blocks are left
 * out (a link or heading inside one is an example, not a link), and so are inline code spans.
 */
function proseLines(text: string): { line: number; text: string; raw: string }[] {
  const out: { line: number; text: string; raw: string }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((raw, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
    if (marker !== undefined) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return;
    }
    if (fence !== null) return;
    out.push({ line: i + 1, text: withoutCodeSpans(raw), raw });
  });
  return out;
}

/**
 * A line with its code spans left out: a run of n backticks opens one, the next run of exactly n
 * closes it (CommonMark); a run never closed is plain text.
 */
function withoutCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      out += line[i];
      i += 1;
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n += 1;
    let close = -1;
    for (let j = i + n; j < line.length;) {
      if (line[j] !== '`') {
        j += 1;
        continue;
      }
      let m = 0;
      while (line[j + m] === '`') m += 1;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close === -1) {
      out += line.slice(i, i + n);
      i += n;
    } else i = close + n;
  }
  return out;
}

/**
 * GitHub's heading anchor: the rendered text lower-cased, every character that is not a letter, a
 * digit, a mark, `_`, `-` or a space dropped, spaces turned into hyphens (github-slugger). A repeated
 * heading gets -1, -2… in order.
 */
function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^[\]]*)\]\([^()]*\)/g, '$1') // a link or an image shows its text
    .replace(/<[^<>]*>/g, ''); // inline HTML shows nothing of its tags
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** An ATX heading's text: trimmed, without its optional closing run of `#` (after a space). */
function headingText(rest: string): string {
  const text = rest.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end -= 1;
  if (end === text.length) return text;
  return end === 0 || text[end - 1] === ' ' || text[end - 1] === '\t' ? text.slice(0, end).trimEnd() : text;
}

/** The anchors a Markdown file offers: its headings' slugs, and explicit `id`/`name` attributes. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { raw } of proseLines(text)) {
    const opened = /^ {0,3}#{1,6}(?:[ \t](.*))?$/.exec(raw);
    if (opened) {
      const heading = headingText(opened[1] ?? '');
      const slug = githubSlug(heading);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const m of raw.matchAll(/<[a-z][^>]*?\s(?:id|name)="([^"]+)"/gi)) anchors.add(m[1]!);
  }
  return anchors;
}

/** Every link of a Markdown file: inline `[text](target)`, reference definitions, autolinks, hrefs. */
function linksOf(file: string, text: string): Link[] {
  const links: Link[] = [];
  for (const { line, text: prose } of proseLines(text)) {
    const add = (target: string) => links.push({ file, line, target });
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) add(m[1]!);
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/.exec(prose);
    if (definition) add(definition[1]!);
    for (const m of prose.matchAll(/<(https?:\/\/[^>\s]+)>/g)) add(m[1]!);
    for (const m of prose.matchAll(/\bhref="([^"]+)"/g)) add(m[1]!);
  }
  return links;
}

interface Report {
  broken: string[];
  external: string[];
  /** Relative links followed, and how many of them named an anchor. */
  followed: number;
  anchored: number;
}

/** Checks every link of the given files against the tree under `root`. */
function checkLinks(root: string, files: string[]): Report {
  const broken: string[] = [];
  const external: string[] = [];
  let followed = 0;
  let anchored = 0;
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    let anchors = anchorCache.get(path);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(path, 'utf8'));
      anchorCache.set(path, anchors);
    }
    return anchors;
  };
  for (const file of files) {
    for (const link of linksOf(file, readFileSync(file, 'utf8'))) {
      const where = `${relative(root, link.file)}:${link.line}: ${link.target}`;
      if (/^https?:\/\//i.test(link.target)) {
        // Listed, not fetched; it must at least be a URL a browser can open.
        if (URL.canParse(link.target)) external.push(link.target);
        else broken.push(`${where} is not a well-formed URL`);
        continue;
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) {
        if (!/^mailto:/i.test(link.target)) broken.push(`${where} uses a scheme GitHub does not link`);
        continue;
      }
      followed += 1;
      const hash = link.target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? link.target : link.target.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(link.target.slice(hash + 1));
      const target = pathPart === '' ? link.file : resolve(dirname(link.file), pathPart.split('?')[0]!);
      if (target !== root && !target.startsWith(root.endsWith(sep) ? root : root + sep)) {
        broken.push(`${where} leads out of the repository`);
        continue;
      }
      if (!existsSync(target)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (anchor === null) continue;
      anchored += 1;
      if (statSync(target).isDirectory() || !target.endsWith('.md')) {
        broken.push(`${where}: an anchor on a file that is not Markdown`);
        continue;
      }
      if (!anchorsIn(target).has(anchor)) broken.push(`${where}: no heading with that anchor`);
    }
  }
  return { broken, external, followed, anchored };
}

describe('links in README.md and docs/', () => {
  const files = markdownFiles(ROOT);

  it('covers the README and the docs pages', () => {
    const names = files.map((f) => relative(ROOT, f));
    expect(names).toContain('README.md');
    expect(names.filter((n) => n.startsWith(`docs${sep}`)).length).toBeGreaterThanOrEqual(6);
  });

  it('every relative link names an existing file and every anchor an existing heading', () => {
    const { broken, external, followed, anchored } = checkLinks(ROOT, files);
    const listed = [...new Set(external)].sort();
    console.log(
      `${followed} relative links followed (${anchored} with an anchor); external links, listed, not fetched:` +
        (listed.length === 0 ? ' none' : `\n  ${listed.join('\n  ')}`),
    );
    expect(broken).toEqual([]);
    // The pages link to each other throughout: finding almost none means the link reader broke.
    expect(followed).toBeGreaterThan(20);
    expect(anchored).toBeGreaterThan(10);
  });
});

describe('the link check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tended-docs-links-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    return join(dir, path);
  };

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Set up')).toBe('set-up');
    expect(githubSlug('The `tended` command')).toBe('the-tended-command');
    expect(githubSlug('At scale (`npm run bench:scale`, 2026-11-23)')).toBe('at-scale-npm-run-benchscale-2026-11-23');
    expect(githubSlug('Facts, never a score')).toBe('facts-never-a-score');
    expect(githubSlug('Links [to docs](docs/api.md) — here')).toBe('links-to-docs--here');
    expect(githubSlug('snake_case and Ünïcode')).toBe('snake_case-and-ünïcode');
  });

  it('finds a missing file, a missing anchor, a link out of the repository and a bad URL', () => {
    write('docs/a.md', '# Alpha\n\n## Twice\n\n## Twice\n\n### Closed ###\n\n## C#\n');
    const readme = write(
      'README.md',
      [
        'Good: [a](docs/a.md), [alpha](docs/a.md#alpha), [second](docs/a.md#twice-1), [self](#top).',
        'Also: [closed](docs/a.md#closed), [sharp](docs/a.md#c).',
        '# Top',
        'Broken: [gone](docs/missing.md), [no anchor](docs/a.md#beta), [out](../elsewhere/x.md).',
        'External: <https://example.org/x> and [bad](http://[::1).',
        '```',
        '[inside a fence](docs/not-checked.md)',
        '```',
        'In code: `[not a link](docs/nope.md)`.',
      ].join('\n'),
    );
    const { broken, external, followed } = checkLinks(dir, [readme, join(dir, 'docs/a.md')]);
    expect(followed).toBe(9);
    expect(broken).toEqual([
      'README.md:4: docs/missing.md: no such file',
      'README.md:4: docs/a.md#beta: no heading with that anchor',
      'README.md:4: ../elsewhere/x.md leads out of the repository',
      'README.md:5: http://[::1 is not a well-formed URL',
    ]);
    expect(external).toEqual(['https://example.org/x']);
  });
});
