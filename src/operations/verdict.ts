import type { ComponentRef } from '../domain/component.js';
import type { HeadBlock } from '../notary/head.js';
import { checkpointSummary, signVerdict, type Verdict } from '../notary/verdict.js';
import type { StoredKeySet } from '../storage/store.js';
import { AnswerCache } from './answer-cache.js';
import type { RecordDeps } from './deps.js';
import type { EntityResult } from './entity-answer.js';
import { readInclusionProof, NotFoundError } from './read-chain.js';
import {
  activeSigner,
  keySetAnswer,
  type KeySetAnswer,
  type VerdictKeyFiles,
  type VerdictSigner,
} from './verdict-keys.js';

// Signed verdicts of the hot answers: a few thousand envelopes of about 2 kB each.
const VERDICT_CACHE_ENTRIES = 5000;

/** What a verdict vouches for: the spec §2.1 fields of a result, whichever answer carries it. */
type SignedFields = Pick<
  EntityResult,
  'purl' | 'as_of' | 'state' | 'observation_date' | 'source' | 'censoring_status' | 'leaf_index'
>;

/**
 * Signs verdicts for answers (TENDED_VERDICTS=on). One envelope per (component, answer date,
 * observation, head): the cache key names all four, so an answer is signed once per head, not once
 * per request. The key set is re-read whenever the head moves, because a rotation (possibly by
 * another process) always appends a leaf.
 */
export class VerdictService {
  private readonly cache = new AnswerCache<Verdict>(VERDICT_CACHE_ENTRIES);
  private loaded: { size: number; keySet: StoredKeySet; signer: VerdictSigner } | null = null;

  constructor(
    private readonly deps: RecordDeps,
    private readonly files: VerdictKeyFiles,
  ) {}

  /** The head verdicts are issued under now: the store's latest. */
  async head(): Promise<HeadBlock> {
    const head = await this.deps.store.latestHead();
    if (!head)
      throw new NotFoundError('the log has no head yet; it is sealed when `tended serve` first opens the store');
    return head;
  }

  /** The published key set (the latest version), for /.well-known/service-verdict-keys.json. */
  async keySet(): Promise<KeySetAnswer> {
    return keySetAnswer((await this.keys(await this.head())).keySet);
  }

  /** One published version of the key set (null when there is none), and the newest version number. */
  async keySetVersion(version: number): Promise<{ keySet: KeySetAnswer | null; newest: number }> {
    const sets = await this.deps.store.keySets();
    const found = sets.find((s) => s.document.version === version);
    return { keySet: found ? keySetAnswer(found) : null, newest: sets.at(-1)?.document.version ?? 0 };
  }

  /** One signed verdict for one answer, under `head`. */
  async sign(ref: ComponentRef, result: SignedFields, head: HeadBlock): Promise<Verdict> {
    const key = `${ref.kind}:${ref.id}|${result.as_of}|${result.state}|${result.leaf_index ?? 'none'}|${head.tree_size}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const { signer } = await this.keys(head);
    let leaf: Uint8Array | null = null;
    let inclusion: Verdict['inclusion_proof'] = null;
    if (result.leaf_index !== null && result.leaf_index < head.tree_size) {
      leaf = (await this.deps.store.leaf(result.leaf_index))!.bytes;
      const proof = await readInclusionProof(this.deps, result.leaf_index, head.tree_size);
      inclusion = { leaf_index: proof.index, tree_size: proof.size, hashes: proof.hashes };
    }
    const verdict = signVerdict(
      {
        predicate: {
          purl: result.purl,
          as_of: result.as_of,
          state: result.state,
          observation_date: result.observation_date,
          source: result.source,
          censoring_status: result.censoring_status,
          leaf_index: leaf ? result.leaf_index : null,
          checkpoint: checkpointSummary(head.checkpoint),
          issued_at: this.deps.clock
            .now()
            .toISOString()
            .replace(/\.\d{3}Z$/, 'Z'),
        },
        checkpoint: head.checkpoint,
        leaf,
        inclusion_proof: inclusion,
      },
      signer,
    );
    this.cache.set(key, verdict);
    return verdict;
  }

  private async keys(head: HeadBlock) {
    if (this.loaded && this.loaded.size === head.tree_size) return this.loaded;
    const keySet = (await this.deps.store.keySets()).at(-1);
    if (!keySet)
      throw new NotFoundError(
        'no verdict key set is published yet; it is made when `tended serve` starts with TENDED_VERDICTS=on',
      );
    const signer =
      this.loaded?.signer.kid === keySet.document.keys.find((k) => k.status === 'active')?.kid
        ? this.loaded!.signer
        : activeSigner(keySet, this.files);
    this.loaded = { size: head.tree_size, keySet, signer };
    return this.loaded;
  }
}
