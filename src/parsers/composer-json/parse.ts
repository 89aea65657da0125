/**
 * composer.json: the packages of `require` and `require-dev` (dev), each direct. Platform requirements (`php`,
 * `ext-*`, `lib-*`, `composer-plugin-api`…) name the PHP runtime, not a Packagist package, and go to
 * `unresolved` with that reason.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { InputError, type ComponentReference, type ParseResult, type UnresolvedEntry } from '../reference.js';
import { MemberLines } from '../json-member-lines.js';
import { checkJsonDepth } from '../json-depth.js';
import { directPlace } from '../direct-place.js';

const SECTIONS = ['require', 'require-dev'] as const;
const PLATFORM = /^(?:php(?:-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(?:-plugin-api|-runtime-api)?)$/i;

/** `lines`: also give each reference its line, a second pass over the text (as package.json's). */
export function parseComposerJson(text: string, options: { lines?: boolean } = {}): ParseResult {
  let doc: unknown;
  const source = text.replace(/^\uFEFF/, '');
  // Before the parse: a constraint nested deep would overflow JSON.stringify below.
  checkJsonDepth(source);
  try {
    doc = JSON.parse(source);
  } catch (e) {
    throw new InputError(
      `Expected a composer.json, but it is not valid JSON: ${e instanceof Error ? e.message.slice(0, 120) : 'unreadable'}`,
    );
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new InputError('Expected a composer.json, a JSON object with "require" and "require-dev".');
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];
  const lines = options.lines === true ? new MemberLines(source, SECTIONS) : undefined;
  for (const section of SECTIONS) {
    const deps = (doc as Record<string, unknown>)[section];
    if (typeof deps !== 'object' || deps === null || Array.isArray(deps)) continue;
    for (const [name, constraint] of Object.entries(deps)) {
      const input = `${name}: ${typeof constraint === 'string' ? constraint : JSON.stringify(constraint)}`.slice(
        0,
        200,
      );
      const location = `${section}.${name}`.slice(0, 200);
      if (PLATFORM.test(name)) {
        unresolved.push({
          input,
          location,
          reason: 'a platform requirement (the PHP runtime or an extension), not a Packagist package',
        });
        continue;
      }
      try {
        const line = lines?.lineOf(section, name);
        references.push({
          ref: normaliseComponent('composer', name),
          input,
          location,
          ...(line ? { line } : {}),
          tree: directPlace({ dev: section === 'require-dev' }),
        });
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        unresolved.push({ input, location, reason: e.issues[0]?.msg ?? 'not a Packagist name' });
      }
    }
  }
  return { format: 'composer-json', references, unresolved };
}
