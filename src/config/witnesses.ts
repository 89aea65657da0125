import { trimTrailing } from '../domain/text.js';
import { parseCosignerKey } from '../notary/cosignature.js';

/**
 * One TENDED_WITNESSES entry: the witness's cosigner vkey (C2SP tlog-cosignature, type 0x04, as the
 * witness network lists it) and its submission URL, separated by a space; the vkey or a sentence.
 */
export function witnessEntry(entry: string): { vkey: string; url: string } | string {
  const parts = entry.split(/\s+/);
  const example = 'e.g. "witness.example/w1+1a2b3c4d+BK…= https://witness.example/w1"';
  if (parts.length !== 2) return `each witness is "<vkey> <url>", ${example}; got "${entry.slice(0, 80)}"`;
  const [vkey, address] = parts as [string, string];
  try {
    parseCosignerKey(vkey);
  } catch (error) {
    return `${vkey.slice(0, 60)} is not a witness vkey (name+keyid+base64 of 0x04 and an Ed25519 key): ${(error as Error).message}`;
  }
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    return `${address.slice(0, 80)} is not a URL; ${example}`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `${address.slice(0, 80)} must be an http(s) URL`;
  if (u.search || u.hash) return `${address.slice(0, 80)} is the witness's submission prefix: no query or fragment`;
  return { vkey, url: trimTrailing(address, '/') };
}
