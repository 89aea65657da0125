/**
 * Cargo.toml: the crates of `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, their
 * `[target.….*]` forms and `[workspace.dependencies]`, each direct: dev in `dev-dependencies`,
 * optional with `optional = true` (a build dependency is needed to build, so it is not dev). A `package = "…"` key names the real crate;
 * a `path` dependency is local and a `git` one another source (a GitHub repository when it is one).
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { githubRepositoryPath } from '../github-url.js';
import { InputError, type ComponentReference, type ParseResult, type UnresolvedEntry } from '../reference.js';
import { checkTomlDepth } from './toml-depth.js';
import { directPlace } from '../direct-place.js';

const SECTIONS = ['dependencies', 'dev-dependencies', 'build-dependencies'] as const;
/** Real manifests are a few KB; smol-toml builds a tree, so a bigger file is refused at once. */
export const MAX_CARGO_TOML_BYTES = 1024 * 1024;

type Table = Record<string, unknown>;

function table(v: unknown): Table | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Table) : null;
}

export function parseCargoToml(text: string): ParseResult {
  if (text.length > MAX_CARGO_TOML_BYTES)
    throw new InputError(
      `This Cargo.toml is ${(text.length / 1024 / 1024).toFixed(1)} MB; Tended reads Cargo.toml files up to 1 MB.`,
    );
  const source = text.replace(/^\uFEFF/, '');
  // Before smol-toml: a dotted key thousands deep builds a table that deep, which JSON.stringify below overflows on.
  checkTomlDepth(source);
  let doc: Table;
  try {
    doc = parseToml(source);
  } catch (e) {
    const where = e instanceof TomlError ? ` on line ${e.line}` : '';
    throw new InputError(
      `Expected a Cargo.toml, but it is not valid TOML${where}: ${e instanceof Error ? e.message.split('\n')[0]!.slice(0, 120) : 'unreadable'}`,
    );
  }
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];
  const take = (deps: unknown, at: string, dev: boolean) => {
    for (const [key, spec] of Object.entries(table(deps) ?? {})) {
      const location = `${at}.${key}`.slice(0, 200);
      const t = table(spec);
      const input =
        `${key} = ${typeof spec === 'string' ? JSON.stringify(spec) : JSON.stringify(spec).slice(0, 150)}`.slice(
          0,
          200,
        );
      let ref: ComponentRef | null = null;
      let why: string | null = null;
      try {
        if (t && typeof t['path'] === 'string') why = 'a path dependency: local code, not a crate from crates.io';
        else if (t && typeof t['git'] === 'string') {
          const repository = githubRepositoryPath(t['git']);
          if (repository) ref = normaliseComponent('github', repository);
          else why = 'a git dependency on a host other than GitHub';
        } else if (t && typeof t['registry'] === 'string')
          why = `from the registry "${t['registry'].slice(0, 40)}", not crates.io`;
        else ref = normaliseComponent('cargo', t && typeof t['package'] === 'string' ? t['package'] : key);
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        why = e.issues[0]?.msg ?? 'not a crate name';
      }
      if (ref)
        references.push({ ref, input, location, tree: directPlace({ dev, optional: t?.['optional'] === true }) });
      else unresolved.push({ input, location, reason: why ?? 'not a crate' });
    }
  };
  for (const section of SECTIONS) take(doc[section], section, section === 'dev-dependencies');
  for (const [target, body] of Object.entries(table(doc['target']) ?? {}))
    for (const section of SECTIONS)
      take(table(body)?.[section], `target.${target}.${section}`, section === 'dev-dependencies');
  take(table(doc['workspace'])?.['dependencies'], 'workspace.dependencies', false);
  return { format: 'cargo-toml', references, unresolved };
}
