import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stageSigningKey, verdictKeyFiles } from '../config/signing-key.js';
import { logNotary } from '../operations/deps.js';
import type { Config } from '../config/config.js';
import { publicJwkOf } from '../notary/key-set.js';
import { verifyVerdict, VerdictError } from '../notary/verdict.js';
import type { RecordDeps } from '../operations/deps.js';
import { activeSigner, ensureKeySet, rotateVerdictKey, type VerdictKeyFiles } from '../operations/verdict-keys.js';
import { VerdictService } from '../operations/verdict.js';
import { openRecord } from './record.js';
import type { CliWiring } from './run.js';

/** Verdict private keys: files next to the checkpoint key, in verdict-keys/ (never in the store). */
export function verdictFiles(config: Config): VerdictKeyFiles {
  return verdictKeyFiles(`${dirname(config.signingKeyPath)}/verdict-keys`, (key) => publicJwkOf(key).kid);
}

/**
 * For `serve` with TENDED_VERDICTS=on: the key set (version 1 made on first start) and a signer
 * whose private key is at hand, checked now so a missing key stops the start, not a request.
 */
export async function openVerdicts(config: Config, deps: RecordDeps): Promise<VerdictService> {
  const files = verdictFiles(config);
  activeSigner(await ensureKeySet(deps, files), files);
  return new VerdictService(deps, files);
}

/** `tended signing rotate`. */
export async function signingCommand(config: Config, wiring: CliWiring, args: string[]): Promise<number> {
  if (args.length !== 1 || args[0] !== 'rotate') {
    wiring.stderr.write('tended: usage: tended signing rotate\n');
    return 2;
  }
  const deps = await openRecord(config, wiring);
  try {
    const files = verdictFiles(config);
    // The set must name the current checkpoint key before it is retired, so version 1 comes first.
    await ensureKeySet(deps, files);
    const staged = stageSigningKey(config.signingKeyPath, deps.clock.now().toISOString());
    const notary = logNotary(config.origin, staged.privateKey, staged.publicKey, deps.notary.vkeys);
    let rotated: Awaited<ReturnType<typeof rotateVerdictKey>>;
    try {
      // Sealed with the new checkpoint key: the head that logs the new set is the first it signs.
      rotated = await rotateVerdictKey({ ...deps, notary }, files);
    } catch (error) {
      staged.abandon();
      throw error;
    }
    const kept = staged.commit();
    const { previous, next } = rotated;
    const retired = previous.document.keys.filter((k) => k.status === 'active').map((k) => k.kid);
    const active = next.document.keys.find((k) => k.status === 'active')!;
    wiring.stdout.write(
      `verdict key set version ${next.document.version} (digest ${next.digest}, leaf ${next.leaf_index}), signed by ${retired.join(', ')}\n` +
        `  active:  ${active.kid} (from ${active.valid_from})\n` +
        retired.map((kid) => `  retired: ${kid} (until ${next.document.issued_at}; stays published)\n`).join('') +
        `checkpoint key: ${notary.vkey} now signs new heads (restart running services to pick it up); ` +
        `the old one stays published as retired, its file kept at ${kept}\n`,
    );
    return 0;
  } finally {
    await deps.store.close();
  }
}

/**
 * `tended verify-verdict ENVELOPE --keys KEYSET`: offline, from the two files only. ENVELOPE holds a
 * verdict, or an answer carrying one (`verdict`), or a manifest/SBOM answer (every result's verdict).
 */
export function verifyVerdictCommand(wiring: CliWiring, envelopePath: string, keysPath: string): number {
  const fail = (message: string) => {
    wiring.stderr.write(`tended: ${message}\n`);
    return 1;
  };
  let file: unknown;
  let keySet: unknown;
  try {
    file = JSON.parse(readFileSync(envelopePath, 'utf8'));
    keySet = JSON.parse(readFileSync(keysPath, 'utf8'));
  } catch (error) {
    return fail(`could not read the files as JSON: ${(error as Error).message}`);
  }
  const verdicts = verdictsIn(file);
  if (verdicts.length === 0) return fail(`${envelopePath} holds no verdict: pass an answer fetched with TENDED_VERDICTS=on, or its "verdict" object`);
  for (const [where, verdict, answer] of verdicts) {
    try {
      const { predicate, subject, keyid } = verifyVerdict(verdict, keySet);
      // A valid envelope beside an edited answer must not pass: the answer's own fields are what a
      // reader acts on, so each must say what the signed statement says.
      const edited = answer ? SIGNED_FIELDS.find((field) => field in answer && JSON.stringify(answer[field]) !== JSON.stringify((predicate as unknown as Record<string, unknown>)[field])) : undefined;
      if (edited) {
        return fail(`${where}: not valid: its ${edited} is ${JSON.stringify(answer![edited])}, but the signed verdict says ${JSON.stringify((predicate as unknown as Record<string, unknown>)[edited])}`);
      }
      wiring.stdout.write(
        `valid: ${subject} was ${predicate.state} (${predicate.censoring_status}, observed ${predicate.observation_date ?? 'never'}) as of ${predicate.as_of}; ` +
          `signed by ${keyid}${predicate.leaf_index === null ? '' : `; leaf ${predicate.leaf_index} is in the signed tree of size ${predicate.checkpoint.tree_size}`}\n`,
      );
    } catch (error) {
      if (error instanceof VerdictError) return fail(`${where}: not valid: ${error.message}`);
      throw error;
    }
  }
  return 0;
}

/** The answer fields a verdict's predicate also carries; an answer beside its verdict must agree on each. */
const SIGNED_FIELDS = ['state', 'observation_date', 'censoring_status', 'leaf_index', 'source', 'as_of'] as const;

type Answer = Record<string, unknown>;

function verdictsIn(file: unknown): [string, unknown, Answer | null][] {
  if (typeof file !== 'object' || file === null) return [];
  const f = file as Answer;
  if ('envelope' in f) return [['the verdict', f, null]];
  if (typeof f['verdict'] === 'object' && f['verdict'] !== null) return [['the answer', f['verdict'], f]];
  if (Array.isArray(f['results'])) {
    return f['results']
      .map((r, i): [string, unknown, Answer | null] => [`results[${i}]`, (r as Answer | null)?.['verdict'], r as Answer])
      .filter(([, v]) => typeof v === 'object' && v !== null);
  }
  return [];
}
