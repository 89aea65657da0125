import { witnessCount, witnessPolicy } from '../notary/cosignature.js';
import { NoteError } from '../notary/note.js';
import type { HeadAnswer } from '../operations/read-chain.js';
import { Layout, renderDocument } from './layout.js';
import type { SiteFacts } from './static-pages.js';

export const VERIFY_JS_PATH = '/assets/verify.js';

/**
 * Why `?index=` names no leaf of a log of `size` leaves, with the status that says so (a number past
 * the end: 404; not a number: 422), or null when it names one. verify.js says the same in the browser.
 */
export function leafProblem(asked: string, size: number): { status: 404 | 422; why: string } | null {
  if (!/^\d{1,15}$/.test(asked))
    return { status: 422, why: `“${asked.slice(0, 40)}” is not a leaf number: ?index= takes 0, 1, 2, …` };
  if (Number(asked) < size) return null;
  return {
    status: 404,
    why: `Leaf ${Number(asked)} is not in the log: it holds ${size} leaves, numbered 0 to ${size - 1}${size === 0 ? ' (none yet)' : ''}. No leaf was checked; the checkpoint below still is.`,
  };
}

/**
 * Why the witness policy in the query (?witness=VKEY, repeated or one per line; ?threshold=K) is
 * not one, or null when it is (or names none). verify.js checks the cosignatures themselves.
 */
export function policyProblem(witness: string[], threshold: string | undefined): string | null {
  const keys = witness.flatMap((v) => v.split(/\s+/)).filter((k) => k !== '');
  if (keys.length === 0)
    return threshold === undefined ? null : '?threshold= counts witnesses: name them with ?witness=VKEY.';
  const count = threshold === undefined ? undefined : witnessCount(threshold);
  if (count === null) return `“${threshold!.slice(0, 20)}” is not a number of witnesses: ?threshold= takes 1, 2, …`;
  try {
    witnessPolicy(keys, count);
    return null;
  } catch (error) {
    if (error instanceof NoteError)
      return `The witness policy is not one: ${error.message}. A witness key is a C2SP cosigner vkey, name+keyid+base64 of 0x04 and an Ed25519 key.`;
    throw error;
  }
}

/** The human form of /verify: the page states the key; the script (verify.js) does the checking. */
export function renderVerifyPage(site: SiteFacts, scriptPath: string, problem?: string): string {
  return renderDocument(
    <Layout
      title="Verify the log — Tended"
      description="Check Tended's signed checkpoint and an inclusion proof in your own browser, with WebCrypto."
      canonical={`${site.baseUrl}/verify`}
      scripts={[scriptPath]}
    >
      <h1>Verify the log</h1>
      {problem ? (
        <p id="leaf-problem" class="result fail" role="alert">
          {problem}
        </p>
      ) : null}
      <p class="lede">
        Your browser fetches the latest signed checkpoint and the inclusion proof of one leaf, and checks both itself
        with WebCrypto (Ed25519 and SHA-256). You need not trust this server: only the key below, which you can compare
        with one you pinned elsewhere.
      </p>
      <section id="verifier" data-vkey={site.verifierKey} data-origin={site.origin} aria-labelledby="key-heading">
        <h2 id="key-heading">The key checked against</h2>
        <p>
          Origin <code>{site.origin}</code>; C2SP verifier key:
        </p>
        {/* A key is one long token: it wraps anywhere rather than run past a phone's edge, and copies whole. */}
        <pre class="key">
          <code>{site.verifierKey}</code>
        </pre>
      </section>
      <h2>Steps</h2>
      <ol id="verify-steps" class="steps"></ol>
      <p id="verify-result" class="result pending" role="status" aria-live="polite">
        Checking… (this needs JavaScript; without it, follow the steps below by hand)
      </p>
      <section aria-labelledby="leaf-heading">
        <h2 id="leaf-heading">What the leaf says</h2>
        <div id="leaf-content" aria-live="polite">
          <p>
            Shown once the leaf’s bytes are fetched and hashed above: the component, the date, the state and the
            evidence, decoded from those same bytes. Add <code>?index=N</code> to this page’s address to check leaf N
            (each package page links its latest).
          </p>
        </div>
      </section>
      <section aria-labelledby="witness-heading">
        <h2 id="witness-heading">Your witness policy</h2>
        <p>
          Witnesses are independent parties that cosign a checkpoint only once they have checked it is consistent with
          every one they saw before, so a log cannot show you one history and someone else another. Name the witnesses
          you trust (their C2SP cosigner keys) and how many of them must have cosigned; this page then checks each
          cosignature itself, and that the checkpoint each witness cosigned is consistent with the one above.
        </p>
        <form method="get" action="/verify" class="check-form">
          <label for="witness-keys">Witness keys, one per line</label>
          <textarea id="witness-keys" name="witness" rows={3} spellcheck={false}></textarea>
          <label for="witness-threshold">How many must have cosigned (default: all)</label>
          <input id="witness-threshold" name="threshold" type="number" min="1" inputmode="numeric" />
          <button type="submit">Check with these witnesses</button>
        </form>
      </section>
      <h2>By hand</h2>
      <ol>
        <li>
          <code>GET /api/chain/checkpoint</code>: a C2SP signed note. Check its Ed25519 signature with the key above,
          then take the tree size and root from its text.
        </li>
        <li>
          <code>GET /api/chain/entries/INDEX</code>: the leaf’s exact bytes. Its hash is SHA-256(0x00 ‖ bytes).
        </li>
        <li>
          <code>GET /api/chain/proof/inclusion?index=INDEX&amp;size=SIZE</code>: fold the hashes up to a root (RFC 9162
          §2.1.3.2) and compare it with the signed root.
        </li>
        <li>
          <code>tended verify --url URL</code> rebuilds the whole tree and checks every head against a pinned key; add{' '}
          <code>--witness VKEY</code> (repeated) and <code>--witness-threshold K</code> to check a witness policy.
        </li>
        <li>
          <code>GET /api/chain/witnesses</code>: each witness’s latest cosigned checkpoint; the log is also served as
          C2SP tlog-tiles under <code>/tlog</code> (<code>/tlog/checkpoint</code> carries the cosignatures of the
          current checkpoint).
        </li>
      </ol>
      <p>
        Machines: <code>GET /verify</code> with <code>Accept: application/json</code> returns the same facts as JSON.
      </p>
    </Layout>,
  );
}

/** The machine form of /verify: the current head, the key, and where each proof lives. */
export function verifyJson(head: HeadAnswer) {
  return {
    origin: head.origin,
    verifier_key: head.verifier_key,
    tree_size: head.tree_size,
    root_hash: head.root_hash,
    timestamp: head.timestamp,
    head_hash: head.head_hash,
    prev_head_hash: head.prev_head_hash,
    checkpoint: head.checkpoint,
    how_to_verify: [
      'Verify the checkpoint note (C2SP signed note, Ed25519) with verifier_key; take tree size and root from its text.',
      'GET /api/chain/entries/{index} and hash the exact bytes: SHA-256(0x00 || bytes).',
      'GET /api/chain/proof/inclusion?index={index}&size={tree_size} and fold the proof to the root (RFC 9162 §2.1.3.2).',
      'GET /api/chain/proof/consistency?from={old}&to={new} to check an older checkpoint against this one.',
    ],
    endpoints: {
      checkpoint: '/api/chain/checkpoint',
      head: '/api/chain/head',
      entry: '/api/chain/entries/{index}',
      inclusion_proof: '/api/chain/proof/inclusion?index={index}&size={size}',
      consistency_proof: '/api/chain/proof/consistency?from={from}&to={to}',
      witnesses: '/api/chain/witnesses',
      tlog_tiles: '/tlog/checkpoint, /tlog/tile/{L}/{N}, /tlog/tile/entries/{N}',
    },
  };
}
