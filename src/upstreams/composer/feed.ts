/**
 * packagist.org's bulk routes, parsed (research §1.7; composer/packagist
 * PackageController.php@31ecf359f1c3): `changes.json` answers `{actions: [{type, package, time}],
 * timestamp}` (type update, delete or resync), or, without a usable `since`, a 400 whose body
 * still carries the `timestamp` to start from; `list.json` answers `{packageNames: [...]}`.
 */
import { parsedBy } from '../following/feed-client.js';
import { asJsonObject } from '../../domain/json-object.js';
export type PackagistAction = { type: 'update' | 'delete' | 'resync'; package: string; time: number };
export type PackagistChanges = { actions: PackagistAction[]; timestamp: number };
export type ComposerPosition = { since: number };

export function parseChanges(body: unknown): PackagistChanges | string {
  const doc = asJsonObject(body);
  const timestamp = doc?.['timestamp'];
  const actions = doc?.['actions'];
  if (typeof timestamp !== 'number' || !Array.isArray(actions)) return 'not a changes.json answer (actions, timestamp)';
  const out: PackagistAction[] = [];
  for (const a of actions) {
    const r = asJsonObject(a);
    const type = r?.['type'];
    const name = r?.['package'];
    const time = r?.['time'];
    if (
      (type !== 'update' && type !== 'delete' && type !== 'resync') ||
      typeof name !== 'string' ||
      typeof time !== 'number'
    )
      return `an action Packagist does not write: ${JSON.stringify(a).slice(0, 100)}`;
    out.push({ type, package: name, time });
  }
  return { actions: out, timestamp };
}

/** The `timestamp` a 400 answer offers to start mirroring from, or null. */
export function startingTimestamp(body: unknown): number | null {
  const t = asJsonObject(body)?.['timestamp'];
  return typeof t === 'number' ? t : null;
}

export function parsePackageList(body: unknown): string[] | string {
  const names = asJsonObject(body)?.['packageNames'];
  if (!Array.isArray(names)) return 'not a list.json answer (packageNames)';
  return names.filter((n): n is string => typeof n === 'string');
}

/** `vendor/name~dev` is the same package's dev-branch metadata file. */
export function packageOf(action: PackagistAction): string {
  return action.package.replace(/~dev$/, '');
}

/** The feed's answers as the HTTP client's facts, reachable by the thread that reads big bodies. */
export const PACKAGE_LIST_FACTS = parsedBy('packagist-list/1', parsePackageList, import.meta.url);
export const CHANGES_FACTS = parsedBy('packagist-changes/1', parseChanges, import.meta.url);
