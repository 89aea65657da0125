import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The checkpoint signing key: read from `path`, or generated there (Ed25519, PKCS#8 PEM, mode 0600)
 * on first start, so a fresh `npm start` needs nothing set up by hand.
 */
export function loadOrCreateSigningKey(path: string): {
  privateKey: KeyObject;
  publicKey: KeyObject;
  created: boolean;
} {
  if (existsSync(path)) {
    const privateKey = createPrivateKey(readFileSync(path));
    if (privateKey.asymmetricKeyType !== 'ed25519') {
      throw new Error(
        `the signing key at ${path} is ${privateKey.asymmetricKeyType}, but checkpoints are signed with Ed25519`,
      );
    }
    return { privateKey, publicKey: createPublicKey(privateKey), created: false };
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  mkdirSync(dirname(path), { recursive: true });
  // Written whole under a temporary name, then linked into place: link fails if another process
  // got there first, and no process ever reads a half-written key.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSigningKey(path);
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return { privateKey, publicKey, created: true };
}

/**
 * Verdict keys live as files in a directory, one per key, named by kid (the RFC 7638 thumbprint),
 * so a rotation adds a file and never rewrites one. Same atomic creation as the checkpoint key.
 */
export function verdictKeyFiles(dir: string, kidOf: (publicKey: KeyObject) => string) {
  const pathOf = (kid: string) => `${dir}/verdict-${kid}.pem`;
  return {
    dir,
    load(kid: string): KeyObject | null {
      const path = pathOf(kid);
      if (!existsSync(path)) return null;
      return createPrivateKey(readFileSync(path));
    },
    create(): { kid: string; privateKey: KeyObject } {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const kid = kidOf(publicKey);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const temporary = `${pathOf(kid)}.${process.pid}.tmp`;
      writeFileSync(temporary, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
      try {
        linkSync(temporary, pathOf(kid));
      } finally {
        rmSync(temporary, { force: true });
      }
      return { kid, privateKey };
    },
  };
}

/**
 * A new checkpoint key for `signing rotate`, written beside the current one but not yet in force:
 * commit() keeps the old key as `<path>.retired-<stamp>` (a hard link, so the old file is never
 * missing) and then atomically renames the new key into `path`; abandon() removes it.
 */
export function stageSigningKey(
  path: string,
  stamp: string,
): { privateKey: KeyObject; publicKey: KeyObject; commit(): string; abandon(): void } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const staged = `${path}.${process.pid}.next`;
  writeFileSync(staged, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  return {
    privateKey,
    publicKey,
    commit() {
      const retired = `${path}.retired-${stamp.replace(/[^0-9A-Z]/gi, '')}`;
      linkSync(path, retired);
      renameSync(staged, path);
      return retired;
    },
    abandon: () => rmSync(staged, { force: true }),
  };
}
