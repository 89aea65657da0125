import type { RecordDeps } from '../operations/deps.js';
import type { HeadAnswers } from '../operations/read-chain.js';
import { CHECKPOINT_TYPE } from '../api/chain.js';
import { currentAnswerCacheControl } from './http-caching.js';
import type { HotProvider } from './hot-path.js';

/**
 * GET /api/chain/head and /api/chain/checkpoint, the reads every monitor and verifying client
 * repeats: the current head as served (operations/read-chain.ts HeadAnswers), tagged by its
 * version. Any query, and a log with no head yet (the framework's 404), go to the framework.
 */
export function hotLogHead(deps: RecordDeps, heads: HeadAnswers): HotProvider {
  const headRead = async () => {
    const head = await heads.current(deps);
    return {
      body: head.json,
      contentType: 'application/json',
      etag: head.jsonEtag,
      headers: ['cache-control', currentAnswerCacheControl(deps.clock.now())],
      licensed: true,
      route: '/api/chain/head',
    };
  };
  const checkpointRead = async () => {
    const head = await heads.current(deps);
    return {
      body: head.checkpoint,
      contentType: CHECKPOINT_TYPE,
      etag: head.checkpointEtag,
      headers: ['cache-control', currentAnswerCacheControl(deps.clock.now())],
      licensed: true,
      route: '/api/chain/checkpoint',
    };
  };
  return {
    prefix: '/api/chain/',
    match(path, query) {
      if (query !== '') return undefined;
      if (path === 'head') return headRead;
      if (path === 'checkpoint') return checkpointRead;
      return undefined;
    },
  };
}
