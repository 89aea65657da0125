/**
 * A transparency-log witness written from the C2SP specs alone, as an independent process: it
 * imports nothing from src/, so a fault shared with Tended's own notary code cannot hide here.
 *
 *   tlog-witness: https://c2sp.org/tlog-witness (POST <prefix>/add-checkpoint)
 *   tlog-cosignature v1 (Ed25519): https://c2sp.org/tlog-cosignature
 *   signed-note: https://c2sp.org/signed-note
 *   RFC 9162 §2.1.4.2: consistency proof verification
 *
 * Configuration is one JSON argument:
 *   { "name": "witness key name", "seed": "<64 hex: Ed25519 seed>", "state": "<file path>",
 *     "logs": [{ "origin": "...", "vkey": "origin+keyid+base64(0x01‖pub)" }] }
 * It prints `listening <port>` once bound to 127.0.0.1 on a free port, and `vkey <its cosigner
 * vkey>`. State (per origin: latest cosigned size and root) is kept in the file and read at start,
 * so a restarted witness remembers what it saw.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const config = JSON.parse(process.argv[2]);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest();
const seed = Buffer.from(config.seed, 'hex');
const privateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
  format: 'der',
  type: 'pkcs8',
});
const publicRaw = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x, 'base64url');
// tlog-cosignature: key ID = SHA-256(name ‖ "\n" ‖ 0x04 ‖ pub)[:4].
const keyId = sha256(Buffer.concat([Buffer.from(config.name), Buffer.from([0x0a, 0x04]), publicRaw])).subarray(0, 4);
const vkey = `${config.name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.from([0x04]), publicRaw]).toString('base64')}`;

/** The logs this witness knows, by origin: each with its note verifier keys (signed-note, type 0x01). */
const logs = new Map();
for (const log of config.logs) {
  const [name, id, b64] = [
    log.vkey.slice(0, log.vkey.indexOf('+')),
    log.vkey.split('+')[1],
    log.vkey.slice(log.vkey.indexOf('+', log.vkey.indexOf('+') + 1) + 1),
  ];
  const key = Buffer.from(b64, 'base64');
  if (key[0] !== 0x01 || key.length !== 33) throw new Error(`log key for ${log.origin} is not an Ed25519 note key`);
  const pub = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: key.subarray(1).toString('base64url') },
    format: 'jwk',
  });
  const expectId = sha256(Buffer.concat([Buffer.from(name), Buffer.from([0x0a, 0x01]), key.subarray(1)])).subarray(
    0,
    4,
  );
  if (expectId.toString('hex') !== id) throw new Error(`log key ID for ${log.origin} does not match`);
  const list = logs.get(log.origin) ?? [];
  list.push({ name, keyId: expectId, pub });
  logs.set(log.origin, list);
}

const state = existsSync(config.state) ? JSON.parse(readFileSync(config.state, 'utf8')) : {};
function persist() {
  // Written before the answer, and in one rename: a crash leaves the old state or the new.
  writeFileSync(`${config.state}.tmp`, JSON.stringify(state));
  renameSync(`${config.state}.tmp`, config.state);
}

const DECIMAL = /^(?:0|[1-9]\d*)$/;
const HASH_B64 = /^[\d+/a-z]{43}=$/i;

function nodeHash(left, right) {
  return sha256(Buffer.concat([Buffer.from([0x01]), left, right]));
}

/** RFC 9162 §2.1.4.2, for 0 < first < second. */
function consistent(first, second, proof, firstHash, secondHash) {
  if (proof.length === 0) return false;
  const path = [...proof];
  // Step 1: when first is a power of two, the first tree is a full subtree: its root seeds the path.
  if ((first & (first - 1)) === 0) path.unshift(firstHash);
  let fn = first - 1;
  let sn = second - 1;
  // Step 3: right-shift both until the lowest bit of fn is clear.
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstHash) && sr.equals(secondHash);
}

class Answer extends Error {
  constructor(status, body, type = 'text/plain; charset=utf-8') {
    super(body);
    this.status = status;
    this.body = body;
    this.type = type;
  }
}

function addCheckpoint(body) {
  const blank = body.indexOf('\n\n');
  if (blank < 0) throw new Answer(400, 'no empty line before the checkpoint\n');
  const head = body.slice(0, blank).split('\n');
  const note = body.slice(blank + 2);
  const oldLine = /^old (0|[1-9]\d*)$/.exec(head[0] ?? '');
  if (!oldLine) throw new Answer(400, 'the first line must be "old <size>"\n');
  const oldSize = Number(oldLine[1]);
  const proofLines = head.slice(1);
  if (proofLines.length > 63) throw new Answer(400, 'more than 63 proof lines\n');
  if (!proofLines.every((l) => HASH_B64.test(l))) throw new Answer(400, 'a proof line is not a base64 hash\n');
  const proof = proofLines.map((l) => Buffer.from(l, 'base64'));

  // The signed note: text up to the last blank line, then signature lines.
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new Answer(400, 'the checkpoint is not a signed note\n');
  const text = note.slice(0, split + 1);
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3 || !DECIMAL.test(lines[1]) || !HASH_B64.test(lines[2]))
    throw new Answer(400, 'the checkpoint body is not origin, size, root\n');
  const [origin, sizeText, rootText] = lines;
  const size = Number(sizeText);
  const root = Buffer.from(rootText, 'base64');

  const keys = logs.get(origin);
  if (!keys) throw new Answer(404, `unknown log ${origin}\n`);
  let verified = false;
  for (const sigLine of note.slice(split + 2, -1).split('\n')) {
    const m = /^\u2014 (\S+) ([\d+/=a-z]+)$/i.exec(sigLine);
    if (!m) throw new Answer(400, 'malformed signature line\n');
    const blob = Buffer.from(m[2], 'base64');
    const key = keys.find((k) => k.name === m[1] && k.keyId.equals(blob.subarray(0, 4)));
    if (!key) continue; // unknown keys are ignored
    if (blob.length !== 68 || !verify(null, Buffer.from(text), key.pub, blob.subarray(4)))
      throw new Answer(403, 'a signature by a known key does not verify\n');
    verified = true;
  }
  if (!verified) throw new Answer(403, 'no signature by a key this witness trusts for the log\n');

  if (oldSize > size) throw new Answer(400, 'old size is larger than the checkpoint size\n');
  const known = state[origin] ?? { size: 0, root: null };
  if (oldSize !== known.size) throw new Answer(409, `${known.size}\n`, 'text/x.tlog.size');
  if (oldSize === 0) {
    if (proof.length !== 0) throw new Answer(400, 'the proof must be empty from size 0\n');
  } else if (oldSize === size) {
    if (proof.length !== 0) throw new Answer(400, 'the proof must be empty between equal sizes\n');
    if (!Buffer.from(known.root, 'base64').equals(root)) throw new Answer(409, `${known.size}\n`, 'text/x.tlog.size');
  } else if (!consistent(oldSize, size, proof, Buffer.from(known.root, 'base64'), root)) {
    process.stdout.write(`inconsistent ${origin} ${oldSize} -> ${size}\n`);
    throw new Answer(422, 'the consistency proof does not verify against the checkpoint this witness saw\n');
  }

  state[origin] = { size, root: rootText };
  persist();
  const timestamp = Math.floor(Date.now() / 1000);
  const message = Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(timestamp));
  const sig = Buffer.concat([keyId, ts, sign(null, message, privateKey)]);
  // An extra line by a key nobody configured, as real witnesses may send: clients must ignore it.
  const stranger = Buffer.concat([Buffer.from('00000000', 'hex'), ts, Buffer.alloc(64)]);
  return `\u2014 ${config.name} ${sig.toString('base64')}\n\u2014 stranger.example/w ${stranger.toString('base64')}\n`;
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let status = 200;
    let body;
    let type = 'text/plain; charset=utf-8';
    try {
      if (req.method !== 'POST' || req.url !== '/add-checkpoint') throw new Answer(404, 'no such endpoint\n');
      body = addCheckpoint(Buffer.concat(chunks).toString('utf8'));
    } catch (error) {
      if (!(error instanceof Answer)) throw error;
      status = error.status;
      body = error.body;
      type = error.type;
    }
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`vkey ${vkey}\nlistening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
