import { loadOrCreateSigningKey } from '../config/signing-key.js';
import type { Config } from '../config/config.js';
import { logNotary, systemClock, type RecordDeps } from '../operations/deps.js';
import type { CliWiring } from './run.js';

/** Opens the store and the signing key: what every command that reads or writes the record needs. */
export async function openRecord(config: Config, wiring: CliWiring): Promise<RecordDeps> {
  const key = loadOrCreateSigningKey(config.signingKeyPath);
  if (key.created) wiring.stderr.write(`tended: generated a new checkpoint signing key at ${config.signingKeyPath}\n`);
  const store = await wiring.openStore(config);
  const notary = logNotary(config.origin, key.privateKey, key.publicKey);
  await store.initialiseLog(notary.seal);
  return { store, notary, clock: systemClock };
}
