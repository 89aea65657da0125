import { dirname } from 'node:path';
import { stageSigningKey, verdictKeyFiles } from '../config/signing-key.js';
import { logNotary } from '../operations/deps.js';
import type { Config } from '../config/config.js';
import { publicJwkOf, type KeySetDocument } from '../notary/key-set.js';
import { verifyVerdict, VerdictError } from '../notary/verdict.js';
import type { RecordDeps } from '../operations/deps.js';
import {
  activeSigner,
  ensureKeySet,
  keySetDocumentOf,
  rotateVerdictKey,
  verifyKeySetChain,
  type VerdictKeyFiles,
} from '../operations/verdict-keys.js';
import { VerdictService } from '../operations/verdict.js';
import { openRecord } from './record.js';
import type { CliWiring } from './wiring.js';
import { EXIT } from './exit-codes.js';
import { InputFileError, readInputFile } from './input-file.js';

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
 * `tended verify-verdict ENVELOPE --keys KEYSET [--keys KEYSET…]`: offline, from the files only.
 * ENVELOPE holds a verdict, or an answer carrying one (`verdict`), or a manifest/SBOM answer (every
 * result's verdict). Each KEYSET file holds one key-set version as served, or a list of versions.
 * With several versions, they must chain from the oldest (the one pinned): each signed by a key of
 * the one before and dropping none of its keys; the verdict is then checked against the newest.
 */
export function verifyVerdictCommand(wiring: CliWiring, envelopePath: string, keysPaths: string[]): number {
  const fail = (message: string, exit: number = EXIT.failed) => {
    wiring.stderr.write(`tended: ${message}\n`);
    return exit;
  };
  const read = (path: string): { json: unknown } | { error: string; exit: number } => {
    let bytes: Buffer;
    try {
      bytes = readInputFile(path);
    } catch (error) {
      // A file that is not there is the caller's to fix (2), not a verdict that is not valid (1).
      if (error instanceof InputFileError) return { error: error.message, exit: EXIT.usage };
      throw error;
    }
    try {
      return { json: JSON.parse(bytes.toString('utf8')) };
    } catch (error) {
      return { error: `could not read ${path} as JSON: ${(error as Error).message}`, exit: EXIT.failed };
    }
  };
  const envelope = read(envelopePath);
  if ('error' in envelope) return fail(envelope.error, envelope.exit);
  const file = envelope.json;
  const keyFiles: [string, unknown][] = [];
  for (const path of keysPaths) {
    const keys = read(path);
    if ('error' in keys) return fail(keys.error, keys.exit);
    keyFiles.push([path, keys.json]);
  }
  const chain = keySetChain(keyFiles);
  if (typeof chain === 'string') return fail(chain);
  const keySet = chain.at(-1)!;
  const verdicts = verdictsIn(file);
  if (verdicts.length === 0)
    return fail(
      `${envelopePath} holds no verdict: pass an answer fetched with TENDED_VERDICTS=on, or its "verdict" object`,
    );
  if (chain.length > 1) {
    wiring.stdout.write(
      `key set: versions ${String(chain[0]!['version'])} to ${String(keySet['version'])} chain from the pinned version ${String(chain[0]!['version'])}; checking against version ${String(keySet['version'])}\n`,
    );
  }
  for (const [where, verdict, answer] of verdicts) {
    try {
      const { predicate, subject, keyid } = verifyVerdict(verdict, keySet);
      // A valid envelope beside an edited answer must not pass: the answer's own fields are what a
      // reader acts on, so each must say what the signed statement says.
      const edited = answer
        ? SIGNED_FIELDS.find(
            (field) =>
              field in answer &&
              JSON.stringify(answer[field]) !==
                JSON.stringify((predicate as unknown as Record<string, unknown>)[field]),
          )
        : undefined;
      if (edited) {
        return fail(
          `${where}: not valid: its ${edited} is ${JSON.stringify(answer![edited])}, but the signed verdict says ${JSON.stringify((predicate as unknown as Record<string, unknown>)[edited])}`,
        );
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

/**
 * The key-set versions of the --keys files, oldest first, checked as a chain when there are several;
 * or a sentence saying why they cannot be used.
 */
function keySetChain(files: [string, unknown][]): Answer[] | string {
  const byVersion = new Map<number, Answer>();
  for (const [path, content] of files) {
    for (const [i, entry] of (Array.isArray(content) ? content : [content]).entries()) {
      const where = Array.isArray(content) ? `${path} [${i}]` : path;
      const shape = keySetShape(entry);
      if (shape)
        return `${where} is not a key set: ${shape}; pass the JSON served at /.well-known/service-verdict-keys.json (or a list of them)`;
      const set = entry as Answer;
      const version = set['version'] as number;
      const seen = byVersion.get(version);
      if (seen && JSON.stringify(keySetDocumentOf(seen)) !== JSON.stringify(keySetDocumentOf(set)))
        return `two different key sets both say they are version ${version}`;
      byVersion.set(version, set);
    }
  }
  const versions = [...byVersion.keys()].sort((a, b) => a - b);
  if (versions.length === 0) return 'the --keys files hold no key set';
  const chain = versions.map((v) => byVersion.get(v)!);
  if (chain.length === 1) return chain;
  for (let i = 1; i < versions.length; i++) {
    if (versions[i] !== versions[i - 1]! + 1) {
      return `key-set versions ${versions[i - 1]} and ${versions[i]} are given but not the ones between: pass every version from the one you pinned to the newest`;
    }
  }
  try {
    verifyKeySetChain(
      chain.map((set) => ({
        document: keySetDocumentOf(set) as unknown as KeySetDocument,
        envelope: set['signature'],
      })),
    );
  } catch (error) {
    return `the key sets do not chain from the pinned version ${versions[0]}: ${(error as Error).message}`;
  }
  return chain;
}

/** What is wrong with the shape of one key-set version, or null. */
function keySetShape(x: unknown): string | null {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'it is not a JSON object';
  const set = x as Answer;
  if (!Number.isSafeInteger(set['version']) || (set['version'] as number) < 1) return 'it has no "version" number';
  if (
    !Array.isArray(set['keys']) ||
    !set['keys'].every((k) => typeof k === 'object' && k !== null && !Array.isArray(k))
  )
    return 'its "keys" is not a list of JWKs';
  const log = set['log'] as Answer | null | undefined;
  if (
    typeof log !== 'object' ||
    log === null ||
    !Array.isArray(log['vkeys']) ||
    !log['vkeys'].every((k) => typeof k === 'object' && k !== null && !Array.isArray(k))
  ) {
    return 'its "log.vkeys" is not a list of checkpoint keys';
  }
  return null;
}

/** The signed document of a key set as served: everything but its signature and where it is logged. */
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
      .map((r, i): [string, unknown, Answer | null] => [
        `results[${i}]`,
        (r as Answer | null)?.['verdict'],
        r as Answer,
      ])
      .filter(([, v]) => typeof v === 'object' && v !== null);
  }
  return [];
}
