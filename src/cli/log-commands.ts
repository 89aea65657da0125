import { trimTrailing } from '../domain/text.js';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Config } from '../config/config.js';
import { ValidationError } from '../domain/errors.js';
import type { HeadBlock } from '../notary/head.js';
import { parseVerifierKey } from '../notary/note.js';
import { auditLog, AuditError, storeLogSource, type LogSource } from '../operations/audit-log.js';
import { EXPORT_TYPE, exportLog, importLog, type ExportHeader } from '../operations/transfer-log.js';
import { readConsistencyProof, readHead } from '../operations/read-chain.js';
import { hashFromBase64 } from '../notary/hash.js';
import type { WitnessRecord } from '../storage/store.js';
import { policyFromFlags, reportWitnessPolicy, type WitnessSource } from './verify-witnesses.js';
import { auditSegment } from '../operations/audit-segment.js';
import { writeDailyExports } from '../operations/daily-exports.js';
import { openRecord } from './record.js';
import type { CliWiring } from './wiring.js';
import { Progress, counted } from './progress.js';
import { fetchService, refusal, ServiceError } from './service-fetch.js';
import { checkReadable, InputFileError } from './input-file.js';
import { dateProblem } from './date-option.js';
import { NoteError } from '../notary/note.js';

/** `tended verify`: exit 0 and a summary when the log verifies, 1 with the reason when it does not. */
export async function verifyCommand(
  config: Config,
  wiring: CliWiring,
  opts: { url?: string; file?: string; key?: string; witness?: string[]; 'witness-threshold'?: string },
): Promise<number> {
  if (opts.url && opts.file) return usage(wiring, 'verify takes --url or --file, not both');
  const policy = policyFromFlags(opts.witness, opts['witness-threshold']);
  if (typeof policy === 'string') return usage(wiring, policy);
  if (policy && opts.file)
    return usage(
      wiring,
      'an export carries no cosignatures: check a witness policy with --url or against the local store',
    );
  // The line being drawn, so a failure part-way ends it before its sentence is written.
  let progress: Progress | null = null;
  try {
    let source: LogSource;
    let vkey: string;
    let total: number | null;
    let witnesses: WitnessSource | null = null;

    if (opts.file) {
      checkReadable(opts.file);
      const lines = readLines(opts.file);
      const header = JSON.parse(String((await lines.next()).value ?? '')) as ExportHeader;
      if (header._type !== EXPORT_TYPE) return usage(wiring, `${opts.file} is not a Tended export`);
      if (header.start !== 0 || header.consistency) {
        // A daily dump or a --since export: rebuilt from its frontier, checked against its checkpoint.
        const verifiers = (opts.key ? [opts.key] : (header.verifier_keys ?? [header.verifier_key])).map(
          parseVerifierKey,
        );
        progress = new Progress(wiring.stderr, 'verify', 'leaves', null);
        const report = await auditSegment(
          header,
          counted(encodeLines(lines), progress),
          verifiers,
          opts.key ? verifiers[0]!.name : header.origin,
        );
        progress.finish();
        wiring.stdout.write(
          `verified: leaves ${report.start} to ${report.tree_size - 1} of ${report.origin} give root ${report.root_hash}` +
            (report.checkpoint_size === report.tree_size
              ? ', as signed\n'
              : `, consistent with the signed checkpoint of ${report.checkpoint_size} leaves\n`),
        );
        return 0;
      }
      vkey = opts.key ?? header.verifier_key;
      source = { checkpoint: header.checkpoint, leaves: encodeLines(lines) };
      total = null;
    } else if (opts.url) {
      const base = trimTrailing(opts.url, '/');
      const head = (await fetchJson(`${base}/api/chain/head`)) as HeadBlock & {
        verifier_key: string;
        verifier_keys?: string[];
      };
      if (!opts.key)
        wiring.stderr.write(`tended: no --key pinned; trusting the key the service names (${head.verifier_key})\n`);
      vkey = opts.key ?? head.verifier_key;
      source = { checkpoint: head.checkpoint, leaves: remoteLeaves(base, head.tree_size) };
      total = head.tree_size;
      witnesses = {
        records: async () =>
          ((await fetchJson(`${base}/api/chain/witnesses`)) as { witnesses: WitnessRecord[] }).witnesses,
        consistencyProof: async (from, to) =>
          (
            (await fetchJson(`${base}/api/chain/proof/consistency?from=${from}&to=${to}`)) as { hashes: string[] }
          ).hashes.map(hashFromBase64),
      };
    } else {
      const deps = await openRecord(config, wiring);
      try {
        const head = await readHead(deps);
        vkey = opts.key ?? deps.notary.vkey;
        // Without --key: every checkpoint key the log published, since heads before a rotation carry the old one.
        const verifiers = opts.key ? parseVerifierKey(vkey) : deps.notary.verifiers;
        progress = new Progress(wiring.stderr, 'verify', 'leaves', head.tree_size);
        const stored = storeLogSource(deps.store, head);
        const report = await auditLog(
          { ...stored, leaves: counted(stored.leaves, progress) },
          verifiers,
          parseVerifierKey(vkey).name,
        );
        progress.finish();
        ok(wiring, report);
        if (!policy) return 0;
        return await reportWitnessPolicy(
          wiring,
          policy,
          {
            records: () => deps.store.witnessRecords(),
            consistencyProof: async (from, to) =>
              (await readConsistencyProof(deps, from, to)).hashes.map(hashFromBase64),
          },
          { verifiers: Array.isArray(verifiers) ? verifiers : [verifiers], origin: parseVerifierKey(vkey).name },
          report,
        );
      } finally {
        await deps.store.close();
      }
    }
    const verifier = parseVerifierKey(vkey);
    progress = new Progress(wiring.stderr, 'verify', 'leaves', total);
    const report = await auditLog({ ...source, leaves: counted(source.leaves, progress) }, verifier, verifier.name);
    progress.finish();
    ok(wiring, report);
    if (!policy || !witnesses) return 0;
    return await reportWitnessPolicy(
      wiring,
      policy,
      witnesses,
      { verifiers: [verifier], origin: verifier.name },
      report,
    );
  } catch (error) {
    progress?.interrupt();
    if (error instanceof ServiceError) {
      wiring.stderr.write(`tended: ${error.message}\n`);
      return error.exit;
    }
    if (error instanceof InputFileError) return usage(wiring, error.message);
    if (error instanceof AuditError || error instanceof ValidationError || error instanceof SyntaxError) {
      wiring.stderr.write(`tended: the log does NOT verify: ${error.message}\n`);
      return 1;
    }
    // A --key that is not a verifier key (or names another key form) is the caller's to fix.
    if (error instanceof NoteError && opts.key)
      return usage(
        wiring,
        `--key ${opts.key.slice(0, 80)} is not a usable verifier key (${error.message}); pass the log's key as origin+keyid+base64`,
      );
    if (error instanceof NoteError) {
      wiring.stderr.write(`tended: the log does NOT verify: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

export async function exportCommand(
  config: Config,
  wiring: CliWiring,
  opts: { since?: string; out?: string },
): Promise<number> {
  const sinceWrong = opts.since === undefined ? null : dateProblem('--since', opts.since, null);
  if (sinceWrong !== null) return usage(wiring, sinceWrong);
  const deps = await openRecord(config, wiring);
  const out = opts.out ? createWriteStream(opts.out) : wiring.stdout;
  // Only with --out does stdout stay free for the counter line; stderr carries it either way.
  const progress = new Progress(wiring.stderr, 'export', 'lines', null);
  try {
    for await (const line of exportLog(deps, opts.since)) {
      progress.add();
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    }
    progress.finish();
  } finally {
    await deps.store.close();
    if (opts.out) await new Promise<void>((resolve) => (out as NodeJS.WritableStream).end(() => resolve()));
  }
  return 0;
}

/** `tended export --daily`: one line per day, saying what was written and what was left as it was. */
export async function dailyExportCommand(
  config: Config,
  wiring: CliWiring,
  opts: { dir: string; partial: boolean },
): Promise<number> {
  const deps = await openRecord(config, wiring);
  try {
    const outcomes = await writeDailyExports(deps, opts.dir, opts);
    for (const o of outcomes) {
      const what =
        o.outcome === 'written' ? 'wrote' : o.outcome === 'kept' ? 'kept' : 'open, not written (--partial writes it)';
      wiring.stdout.write(`${o.name}: leaves ${o.start} to ${o.tree_size - 1}, ${what}\n`);
    }
    if (outcomes.length === 0) wiring.stdout.write('the log holds no leaves yet; nothing to write\n');
    return 0;
  } finally {
    await deps.store.close();
  }
}

export async function importCommand(config: Config, wiring: CliWiring, file: string, key?: string): Promise<number> {
  try {
    checkReadable(file);
  } catch (error) {
    if (error instanceof InputFileError) return usage(wiring, `${error.message}; nothing was imported`);
    throw error;
  }
  const deps = await openRecord(config, wiring);
  try {
    const progress = new Progress(wiring.stderr, 'import', 'lines', null);
    const report = await importLog(deps, counted(readLines(file), progress), key);
    progress.finish();
    wiring.stdout.write(
      `imported ${report.tree_size} leaves; root ${report.root_hash} matches the signed checkpoint of ${report.origin}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof AuditError || error instanceof ValidationError) {
      wiring.stderr.write(`tended: nothing was imported: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await deps.store.close();
  }
}

function ok(
  wiring: CliWiring,
  report: { origin: string; tree_size: number; root_hash: string; heads_checked: number },
): number {
  wiring.stdout.write(
    `verified: ${report.tree_size} leaves of ${report.origin} give root ${report.root_hash}, as signed` +
      (report.heads_checked ? `; ${report.heads_checked} heads chain and match the tree` : '') +
      '\n',
  );
  return 0;
}

function usage(wiring: CliWiring, message: string): number {
  wiring.stderr.write(`tended: ${message}\n`);
  return 2;
}

function readLines(path: string): AsyncIterator<string> & AsyncIterable<string> {
  return createInterface({ input: createReadStream(path), crlfDelay: Infinity })[
    Symbol.asyncIterator
  ]() as AsyncIterator<string> & AsyncIterable<string>;
}

async function* encodeLines(lines: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for await (const line of lines) if (line !== '') yield encoder.encode(line);
}

/** One request of `verify --url` may take this long: a page of a thousand leaves. */
const VERIFY_TIMEOUT_MS = 60_000;

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetchService(url, { headers: { accept: 'application/json' } }, VERIFY_TIMEOUT_MS, 'verified');
  // The service not answering, or answering an error, says nothing about the log: not "does NOT verify".
  if (!response.ok) throw refusal(url, response, null, 'verified');
  return response.json();
}

const REMOTE_PAGE = 1000;

async function* remoteLeaves(base: string, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < size; start += REMOTE_PAGE) {
    const url = `${base}/api/chain/entries?start=${start}&end=${Math.min(size, start + REMOTE_PAGE)}`;
    const response = await fetchService(url, {}, VERIFY_TIMEOUT_MS, 'verified');
    if (!response.ok) throw refusal(url, response, null, 'verified');
    const body = new Uint8Array(await response.arrayBuffer());
    // Split on the newline byte, not on decoded text, so each leaf is exactly the bytes served.
    for (let from = 0; from < body.length;) {
      const to = body.indexOf(0x0a, from);
      const end = to === -1 ? body.length : to;
      if (end > from) yield body.subarray(from, end);
      from = end + 1;
    }
  }
}
