import { parseArgs } from 'node:util';
import type { Config } from '../config/config.js';
import { KEY_CACHE_MS } from '../limits/limiter.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../operations/api-keys.js';
import type { CliWiring } from './wiring.js';

const KEYS_USAGE = 'keys takes create [--label L], revoke ID, or list';

/**
 * `tended keys create [--label L] | revoke ID | list`: the operator's API keys. A new key is printed
 * once, on stdout, and never again: only its SHA-256 is stored.
 */
export async function keysCommand(config: Config, wiring: CliWiring, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const usage = (message = KEYS_USAGE) => {
    wiring.stderr.write(`tended: ${message}\n`);
    return 2;
  };
  if (action !== 'create' && action !== 'revoke' && action !== 'list') return usage();
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { label: { type: 'string' } },
  });
  if (action === 'create' && positionals.length > 0) return usage('keys create takes no arguments but --label L');
  if (action === 'revoke' && (positionals.length !== 1 || values.label !== undefined))
    return usage('keys revoke takes one key ID (see `keys list`)');
  if (action === 'list' && (positionals.length > 0 || values.label !== undefined))
    return usage('keys list takes no arguments');
  const store = await wiring.openStore(config);
  try {
    if (action === 'create') {
      const { key, record } = await createApiKey(store, values.label?.trim() || null, new Date());
      wiring.stdout.write(`${key}\n`);
      wiring.stderr.write(
        `tended: created API key ${record.id}${record.label ? ` (${record.label})` : ''}, ${config.rateLimitKey} requests per minute. ` +
          'It is shown this once; only its SHA-256 is kept. Clients send it as X-API-Key.\n',
      );
      return 0;
    }
    if (action === 'revoke') {
      const id = positionals[0]!;
      if (await revokeApiKey(store, id, new Date())) {
        wiring.stdout.write(`revoked ${id}; running services refuse it within ${KEY_CACHE_MS / 1000} s\n`);
        return 0;
      }
      wiring.stderr.write(`tended: no active key has the ID ${id} (see \`keys list\`)\n`);
      return 1;
    }
    for (const k of await listApiKeys(store)) {
      wiring.stdout.write(
        `${k.id}\t${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\tcreated ${k.created_at}\t${k.label ?? ''}\n`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}
