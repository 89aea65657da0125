/**
 * `tended check DIR`: the files of a directory worth checking, found the way a person expects. It
 * skips what a checkout holds but does not declare (`.git/`, installed packages, virtual
 * environments, build output) and what the directory's `.gitignore` files ignore, and keeps every
 * manifest, lockfile and SBOM it knows by name. The walk is bounded: a directory of a million files
 * or a loop of symbolic links costs a known, small amount and never hangs.
 */
import { lstatSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import gitignore, { type Ignore } from 'ignore';
import { formatOfFilename } from '../operations/parse-submission.js';

/**
 * Directories never entered, whatever `.gitignore` says: version control, installed dependencies
 * (node_modules, vendor: Composer's, Go's and Bundler's), Python virtual environments and caches,
 * and Rust's and Maven's build output (`target/`). `dist/` and `build/` are not on the list: in
 * some projects they are sources, and where they are output `.gitignore` usually names them.
 */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'vendor',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  'target',
]);

/** The walk's bounds, said in docs/cli.md. */
export const WALK_LIMITS = {
  /** Files checked: more is a usage error that asks for a narrower directory. */
  files: 1_000,
  /** Directories below DIR entered; deeper ones are passed over. */
  depth: 32,
  /** Directory entries looked at in all, so a huge tree of other files costs a bounded time. */
  entries: 200_000,
  /** Bytes of all files checked together. */
  bytes: 256 * 1024 * 1024,
  /** One `.gitignore` read; a larger one is passed over (nothing it says is applied). */
  gitignoreBytes: 1024 * 1024,
};

/** A file found: its path on disk and relative to DIR (with `/`), and its size. */
export interface FoundFile {
  path: string;
  relative: string;
  bytes: number;
}

export interface Walk {
  files: FoundFile[];
  /** Sentences on what the walk passed over because of its bounds (said on stderr). */
  passedOver: string[];
}

/** SBOMs by their conventional names (CycloneDX's and SPDX's own recommendations). */
const SBOM_NAME = /(?:\.cdx\.(?:json|xml)|\.spdx(?:\.json|\.ya?ml|\.rdf)?|^bom\.(?:json|xml)|^sbom\.(?:json|xml))$/i;

/**
 * Whether the walk checks this file: an SBOM by name, or a file `formatOfFilename` knows, except
 * that its generous guesses for a single file (any `.txt` is requirements, any YAML a workflow)
 * would take every licence text and configuration file of a checkout: in a walk, a `.txt` or `.in`
 * counts only when its name says requirements, and a YAML file only under `.github/workflows/`.
 */
export function walkChecks(relative: string): boolean {
  const base = relative.slice(relative.lastIndexOf('/') + 1);
  if (SBOM_NAME.test(base)) return true;
  const format = formatOfFilename(base);
  if (format === null) return false;
  if (format === 'workflow') return /(?:^|\/)\.github\/workflows\/[^/]+$/.test(relative);
  if (format === 'requirements') return /requirements/i.test(base);
  return true;
}

interface Rules {
  /** The directory the `.gitignore` is in, relative to DIR ('' for DIR), with a trailing `/`. */
  base: string;
  rules: Ignore;
}

/** Whether the chain of `.gitignore` files from DIR down ignores `relative` (a directory ends with `/`). */
function ignored(chain: Rules[], relative: string): boolean {
  let result = false;
  // A deeper file's rules come later and win, as git's do; a negation (`!x`) un-ignores.
  for (const { base, rules } of chain) {
    if (!relative.startsWith(base)) continue;
    const verdict = rules.test(relative.slice(base.length));
    if (verdict.ignored) result = true;
    else if (verdict.unignored) result = false;
  }
  return result;
}

function gitignoreOf(dir: string, base: string, passedOver: string[]): Rules | null {
  const path = join(dir, '.gitignore');
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return null;
    if (stat.size > WALK_LIMITS.gitignoreBytes) {
      passedOver.push(
        `${base}.gitignore is over ${WALK_LIMITS.gitignoreBytes / 1024 / 1024} MB: its rules were not applied`,
      );
      return null;
    }
    return { base, rules: gitignore.default().add(readFileSync(path, 'utf8')) };
  } catch {
    return null;
  }
}

/**
 * The files under `root` to check, in a stable order (by path). Symbolic links to directories are
 * never followed (so no loop of links can hold the walk); a link to a file is read as the file.
 */
export function walkDirectory(root: string): Walk {
  const files: FoundFile[] = [];
  const passedOver: string[] = [];
  let entries = 0;
  let bytes = 0;
  let stopped = false;
  const visit = (dir: string, relativeDir: string, depth: number, chain: Rules[]) => {
    const own = gitignoreOf(dir, relativeDir, passedOver);
    const rules = own ? [...chain, own] : chain;
    let listing: Dirent[];
    try {
      listing = readdirSync(dir, { withFileTypes: true });
    } catch {
      passedOver.push(`${relativeDir || './'} could not be read`);
      return;
    }
    listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of listing) {
      if (stopped) return;
      if (++entries > WALK_LIMITS.entries) {
        passedOver.push(`the walk stopped after ${WALK_LIMITS.entries.toLocaleString('en')} entries`);
        stopped = true;
        return;
      }
      const relative = `${relativeDir}${entry.name}`;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(entry.name) || ignored(rules, `${relative}/`)) continue;
        if (depth + 1 > WALK_LIMITS.depth) {
          passedOver.push(`${relative}/ is deeper than ${WALK_LIMITS.depth} directories: not entered`);
          continue;
        }
        visit(path, `${relative}/`, depth + 1, rules);
        continue;
      }
      if (!entry.isFile() && !entry.isSymbolicLink()) continue;
      if (!walkChecks(relative) || ignored(rules, relative)) continue;
      let size: number;
      try {
        // A link is followed to a file only; lstat first so a link to a directory is passed over.
        const stat = entry.isSymbolicLink() ? statSync(path) : lstatSync(path);
        if (!stat.isFile()) continue;
        size = stat.size;
      } catch {
        continue;
      }
      if (files.length >= WALK_LIMITS.files) {
        passedOver.push(
          `more than ${WALK_LIMITS.files.toLocaleString('en')} files to check: the rest were passed over`,
        );
        stopped = true;
        return;
      }
      if (bytes + size > WALK_LIMITS.bytes) {
        passedOver.push(`${relative} was passed over: the files found reach ${WALK_LIMITS.bytes / 1024 / 1024} MB`);
        continue;
      }
      bytes += size;
      files.push({ path, relative, bytes: size });
    }
  };
  visit(root, '', 0, []);
  return { files, passedOver };
}
