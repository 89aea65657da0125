/**
 * What a reader asks of a 200 body, in a file of its own: the HTTP client and the threads that
 * read big bodies both need it, and neither may import the other's file for it.
 */
import type { EvidenceValue } from '../../domain/observation.js';

/** How a 200 body becomes the facts a reader works on; only facts are cached, never bodies. */
export interface FactsSpec<F extends EvidenceValue> {
  /** Names the facts' format: facts cached in another format are not re-confirmed by a 304. */
  version: string;
  /**
   * The module that exports this spec (its `import.meta.url`): a big body is read on another
   * thread (big-body-reader.ts), which imports this module and uses its export with this version.
   */
  from: string;
  /**
   * The facts a 200 body establishes, or a sentence saying why the body cannot be read. The body
   * is parsed JSON, or the text itself when the request asked for `body: 'text'` (XML, go.mod);
   * the headers are there for facts only they carry (a file's Last-Modified).
   */
  extract(body: unknown, headers: Headers): F | string;
}
