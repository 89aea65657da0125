import type { Config } from '../config/config.js';
import { datedRead } from '../domain/as-of.js';
import { utcDateOf } from '../domain/calendar.js';
import { checkComponents, type CheckAnswer } from '../operations/check-components.js';
import type { ParseResult } from '../parsers/reference.js';
import { closeRecord, openObserver, openRecord } from './record.js';
import { Progress } from './progress.js';
import { observeNamed, type NotShownPublic, type ObserverDeps } from '../operations/observe.js';
import type { CliWiring } from './wiring.js';
import { NAMED_IN_GATE, plural, type CheckOptions } from './check-options.js';
import { runCheck } from './check-run.js';

const READ_AT_ONCE = 8;
/** Off a terminal, --observe says how far it got this often: a CI log silent for a minute looks stuck. */
const LOG_EVERY_MS = 5_000;

/**
 * `tended check FILE|DIR`: one dated result per component of a local manifest, lockfile or SBOM (or
 * of each one a directory holds, check-dir.ts), from the local store or a running service (--url). Exit codes (exit-codes.ts): 1 when any is in a failing state,
 * with a sentence on stderr naming them; 2 for a usage error; 3 when the service did not answer.
 */
export async function checkCommand(
  config: Config,
  wiring: CliWiring,
  file: string,
  opts: CheckOptions,
): Promise<number> {
  const outcome = await runCheck(wiring, file, opts, (parsed, asOf, observe) =>
    localCheck(config, wiring, parsed, asOf, observe),
  );
  return outcome.exit;
}

/**
 * The answers of the local record, one per parsed file, from one opening of the store. With
 * `observe`, the union of the files' components is read first, once (a directory's files share
 * most of their components), and each file's answer says what of its own was not shown public.
 */
async function localCheck(
  config: Config,
  wiring: CliWiring,
  files: ParseResult[],
  asOf: string | undefined,
  observe: boolean,
): Promise<CheckAnswer[]> {
  const deps = observe ? await openObserver(config, wiring) : await openRecord(config, wiring, { readOnly: true });
  try {
    const union = files.flatMap((parsed) => parsed.references);
    const notShown = observe ? await observeUnread(deps as ObserverDeps, union, wiring) : [];
    const answers: CheckAnswer[] = [];
    for (const parsed of files) {
      const answer = await checkComponents(deps, parsed, datedRead(asOf, deps.clock.now()));
      const unheld = answer.results.filter((r) => r.observation_date === null && r.last_asserted === null).length;
      if (unheld > 0 && !observe)
        answer.discovery = {
          unheld,
          queued: 0,
          not_queued: unheld,
          note: `The local record holds no observation of ${unheld.toLocaleString('en')} of these components on or before ${answer.as_of}. Run the same check with --observe to read them now, or with --url to ask a running service (add --queue to have it queue them).`,
        };
      const named = new Set(parsed.references.map((r) => `${r.ref.kind}:${r.ref.id}`));
      const mine = notShown.filter((n) => named.has(`${n.component.kind}:${n.component.id}`));
      if (mine.length > 0) answer.discovery = { unheld, queued: 0, not_queued: unheld, note: notShownNote(mine) };
      answers.push(answer);
    }
    return answers;
  } finally {
    await closeRecord(deps);
  }
}

/** What --observe says of the names whose first read did not show them public (nothing was recorded for them). */
function notShownNote(notShown: NotShownPublic[]): string {
  const names = (met: NotShownPublic['met']) =>
    notShown.filter((n) => n.met === met).map((n) => `${n.component.kind}:${n.component.id}`);
  const parts: string[] = [];
  const notFound = names('not_found');
  const failed = names('failed');
  if (notFound.length > 0)
    parts.push(
      `Not shown public by a first read (its registry answered not found, or holds the name as deleted), so nothing was recorded: a private package, a typo, or one withdrawn before it was ever read; Tended records a name only once its registry has shown it public: ${list(notFound)}.`,
    );
  if (failed.length > 0)
    parts.push(
      `The first read failed (a rate limit, a time-out, a server error), so nothing was recorded; run the check again later: ${list(failed)}.`,
    );
  return parts.join(' ');
}

function list(names: string[]): string {
  return names.length <= NAMED_IN_GATE
    ? names.join(', ')
    : `${names.slice(0, NAMED_IN_GATE).join(', ')} and ${names.length - NAMED_IN_GATE} more`;
}

/**
 * `--observe`: reads now, through the observer's own append path, every component of the file
 * that the local record holds no observation of today, so the answer rests on today's reading.
 * A name the record never held is recorded only once a read shows it public (discovery's rule):
 * the names returned met a not-found or a failure and have no observation. A read held back by a
 * rate limit records nothing (the answer then says "not checked").
 */
async function observeUnread(
  deps: ObserverDeps,
  references: ParseResult['references'],
  wiring: CliWiring,
): Promise<NotShownPublic[]> {
  const today = utcDateOf(deps.clock.now());
  const refs = new Map(references.map((r) => [`${r.ref.kind}:${r.ref.id}`, r.ref]));
  const held = await deps.store.observationsOfMany([...refs.values()]);
  const unread = [...refs].filter(([key]) => !(held.get(key) ?? []).some((o) => o.observation_date === today));
  if (unread.length === 0) return [];
  const tty = (wiring.stderr as { isTTY?: boolean }).isTTY === true;
  if (!tty)
    wiring.stderr.write(
      `observe: reading ${plural(unread.length, 'component', 'components')} the local record holds no observation of today\n`,
    );
  const progress = new Progress(wiring.stderr, 'observe', 'components', unread.length, undefined, LOG_EVERY_MS);
  const notShown: NotShownPublic[] = [];
  // A few at a time, so the progress line moves while a large file is read.
  for (let i = 0; i < unread.length; i += READ_AT_ONCE) {
    const chunk = unread.slice(i, i + READ_AT_ONCE).map(([, ref]) => ref);
    notShown.push(...(await observeNamed(deps, chunk, READ_AT_ONCE, { publicFirst: true })).not_shown);
    progress.add(chunk.length);
  }
  progress.finish();
  return notShown;
}
