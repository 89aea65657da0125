/**
 * /assets/verify.js: the reader's browser checks the log itself, with WebCrypto, trusting only the
 * verifier key printed on the page (which a reader can compare with one pinned elsewhere):
 *
 *   1. fetch the checkpoint note; check the key ID and the Ed25519 signature of the note text;
 *   2. take size and root from the verified text (never from JSON beside it);
 *   3. fetch one leaf's exact bytes and hash them, SHA-256(0x00 ‖ bytes);
 *   4. fetch its inclusion proof for that size and fold it up to a root (RFC 9162 §2.1.3.2);
 *   5. the folded root must equal the signed one.
 *
 * Plain ES2020 in a string, so the build ships it as it is; no template literals inside, so the
 * TypeScript string stays a plain one.
 *
 * With ?witness=VKEY (repeated) and ?threshold=K, also the reader's witness policy: each named
 * witness's latest cosigned checkpoint (/api/chain/witnesses) must carry the log's signature and the
 * witness's cosignature, and be the verified tree or consistent with it (a consistency proof
 * checked here); fewer than K → not verified.
 */
export const VERIFY_JS = String.raw`
(function () {
  'use strict';
  var root = document.getElementById('verifier');
  var list = document.getElementById('verify-steps');
  var result = document.getElementById('verify-result');
  if (!root || !list || !result) return;
  var vkey = root.getAttribute('data-vkey') || '';
  var enc = new TextEncoder();

  function step(label) {
    var li = document.createElement('li');
    var status = document.createElement('span');
    status.className = 'status pending';
    status.textContent = 'checking… ';
    var text = document.createElement('span');
    text.textContent = label;
    var detail = document.createElement('div');
    detail.className = 'mono';
    li.appendChild(status);
    li.appendChild(text);
    li.appendChild(detail);
    list.appendChild(li);
    return {
      ok: function (msg) { status.className = 'status ok'; status.textContent = 'ok: '; detail.textContent = msg || ''; },
      fail: function (msg) { status.className = 'status fail'; status.textContent = 'failed: '; detail.textContent = msg || ''; }
    };
  }
  function b64(s) {
    var bin = atob(s.trim());
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function toB64(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s);
  }
  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }
  function concat(parts) {
    var n = 0, i, off = 0;
    for (i = 0; i < parts.length; i++) n += parts[i].length;
    var out = new Uint8Array(n);
    for (i = 0; i < parts.length; i++) { out.set(parts[i], off); off += parts[i].length; }
    return out;
  }
  function sha256(bytes) {
    return crypto.subtle.digest('SHA-256', bytes).then(function (d) { return new Uint8Array(d); });
  }
  function equal(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  function fail(s, msg) {
    s.fail(msg);
    result.className = 'result fail';
    result.textContent = 'Not verified: ' + msg;
    throw new Error(msg);
  }
  function get(url, as) {
    return fetch(url, { headers: { accept: as === 'text' ? 'text/plain' : 'application/json' }, cache: 'no-store' }).then(function (r) {
      if (!r.ok) throw new Error(url + ' answered ' + r.status);
      return as === 'bytes' ? r.arrayBuffer().then(function (b) { return new Uint8Array(b); }) : as === 'text' ? r.text() : r.json();
    });
  }
  // RFC 9162 §2.1.3.2, with the hashes the page computes itself.
  function foldInclusion(leaf, index, size, proof) {
    var fn = index, sn = size - 1, r = Promise.resolve(leaf), i = 0;
    function next(h) {
      if (i === proof.length) return sn === 0 ? h : null;
      if (sn === 0) return null;
      var p = proof[i++];
      var combined;
      if (fn % 2 === 1 || fn === sn) {
        combined = sha256(concat([new Uint8Array([1]), p, h]));
        while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else {
        combined = sha256(concat([new Uint8Array([1]), h, p]));
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
      return combined.then(next);
    }
    return r.then(next);
  }

  // What the leaf says, decoded from the very bytes this page hashed, so the reader can tie the
  // check to the record they came from. Every value goes in as text (textContent), never as markup.
  var LEAF_FIELDS = ['kind', 'id', 'component', 'observation_date', 'read_date', 'state', 'dependents', 'source',
    'method', 'observed_at', 'read_at', 'corrects', 'logged_at', '_type'];
  function pagePath(kind, id) {
    if (kind === 'maven') return '/maven/' + id.replace(':', '/');
    if (kind === 'docker' && id.indexOf('docker.io/') === 0) return '/docker/' + id.slice('docker.io/'.length);
    return '/' + kind + '/' + id;
  }
  function showLeaf(bytes, index) {
    var box = document.getElementById('leaf-content');
    if (!box) return;
    var record;
    try { record = JSON.parse(new TextDecoder().decode(bytes)); } catch (e) { record = null; }
    var list = document.createElement('dl');
    list.className = 'facts';
    function add(name, value) {
      var dt = document.createElement('dt');
      dt.textContent = name;
      var dd = document.createElement('dd');
      if (value instanceof Node) dd.appendChild(value); else dd.textContent = value;
      list.appendChild(dt);
      list.appendChild(dd);
    }
    add('Leaf', String(index));
    if (record === null || typeof record !== 'object') {
      add('Bytes', 'not JSON: ' + bytes.length + ' bytes');
    } else {
      for (var i = 0; i < LEAF_FIELDS.length; i++) {
        var k = LEAF_FIELDS[i];
        if (record[k] !== undefined && record[k] !== null && typeof record[k] !== 'object') add(k, String(record[k]));
      }
      if (record.evidence && typeof record.evidence === 'object') {
        var code = document.createElement('code');
        code.textContent = JSON.stringify(record.evidence);
        add('evidence', code);
      }
      if (typeof record.kind === 'string' && typeof record.id === 'string') {
        var a = document.createElement('a');
        a.href = pagePath(record.kind, record.id);
        a.textContent = 'the record of ' + record.id;
        add('Page', a);
      }
    }
    box.textContent = '';
    box.appendChild(list);
  }

  // The reader's witness policy (?witness=VKEY, repeated or one per line; ?threshold=K, default all):
  // cosignatures (C2SP tlog-cosignature v1) checked here, each over a checkpoint this page checks too.
  var params = new URLSearchParams(location.search);
  var witnessKeys = [];
  params.getAll('witness').forEach(function (v) {
    v.split(/\s+/).forEach(function (k) { if (k) witnessKeys.push(k); });
  });
  var threshold = params.get('threshold') !== null ? Number(params.get('threshold')) : witnessKeys.length;
  function importEd25519(raw) {
    return crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
  }
  async function parseWitness(vk) {
    var i = vk.indexOf('+'), j = vk.indexOf('+', i + 1);
    if (i < 1 || j < 0) throw new Error(vk.slice(0, 40) + ' is not name+id+key');
    var name = vk.slice(0, i), id = vk.slice(i + 1, j).toLowerCase(), typed = b64(vk.slice(j + 1));
    if (typed.length !== 33 || typed[0] !== 4) throw new Error(name + ': not a witness cosigner key (type 0x04)');
    var d = await sha256(concat([enc.encode(name), new Uint8Array([10, 4]), typed.slice(1)]));
    if (hex(d.slice(0, 4)) !== id) throw new Error(name + ': the key ID does not match the key');
    return { name: name, id: id, key: await importEd25519(typed.slice(1)) };
  }
  function noteLine(noteBody, name, id) {
    var lines = noteBody.slice(noteBody.lastIndexOf('\n\n') + 2).split('\n');
    for (var k = 0; k < lines.length; k++) {
      var m = /^\u2014 (\S+) (\S+)$/.exec(lines[k]);
      if (m && m[1] === name) {
        var blob = b64(m[2]);
        if (hex(blob.slice(0, 4)) === id) return blob.slice(4);
      }
    }
    return null;
  }
  async function nodeHash(l, r) { return sha256(concat([new Uint8Array([1]), l, r])); }
  // RFC 9162 §2.1.4.2, for 0 < first < second.
  async function consistent(first, second, proof, firstRoot, secondRoot) {
    if (proof.length === 0) return false;
    var path = Math.pow(2, Math.round(Math.log2(first))) === first ? [firstRoot].concat(proof) : proof.slice();
    var fn = first - 1, sn = second - 1;
    while (fn % 2 === 1) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    var fr = path[0], sr = path[0];
    for (var i = 1; i < path.length; i++) {
      if (sn === 0) return false;
      if (fn % 2 === 1 || fn === sn) {
        fr = await nodeHash(path[i], fr);
        sr = await nodeHash(path[i], sr);
        while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else {
        sr = await nodeHash(sr, path[i]);
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sn === 0 && equal(fr, firstRoot) && equal(sr, secondRoot);
  }
  async function witnessFinding(w, record, logKey) {
    if (!record || !record.cosigned) return w.name + ': no cosigned checkpoint of this log';
    var n = record.cosigned.note;
    var ntext = n.slice(0, n.lastIndexOf('\n\n') + 1);
    var logSig = noteLine(n, keyName, keyId);
    if (!logSig || !(await crypto.subtle.verify({ name: 'Ed25519' }, logKey, logSig, enc.encode(ntext))))
      return w.name + ': the checkpoint it cosigned carries no valid signature by ' + keyName;
    var cos = noteLine(n, w.name, w.id);
    if (!cos || cos.length !== 72) return w.name + ': no cosignature by its key';
    var t = 0;
    for (var b = 0; b < 8; b++) t = t * 256 + cos[b];
    var message = enc.encode('cosignature/v1\ntime ' + t + '\n' + ntext);
    if (!(await crypto.subtle.verify({ name: 'Ed25519' }, w.key, cos.slice(8), message)))
      return w.name + ': its cosignature does not verify';
    var lines = ntext.slice(0, -1).split('\n');
    var csize = Number(lines[1]), croot = b64(lines[2]);
    var ok = false;
    if (lines[0] !== keyName) return w.name + ': it cosigned a checkpoint of another origin';
    if (csize === size) ok = equal(croot, rootHash);
    else if (csize > 0 && csize < size) {
      var proof = await get('/api/chain/proof/consistency?from=' + csize + '&to=' + size, 'json');
      ok = await consistent(csize, size, (proof.hashes || []).map(b64), croot, rootHash);
    } else if (csize > size) {
      // The log grew since this page read its checkpoint, and the witness cosigned the larger tree.
      var ahead = await get('/api/chain/proof/consistency?from=' + size + '&to=' + csize, 'json');
      ok = await consistent(size, csize, (ahead.hashes || []).map(b64), rootHash, croot);
    }
    if (!ok) return w.name + ': cosigned size ' + csize + ', NOT consistent with the checkpoint verified above';
    return { text: w.name + ' cosigned size ' + csize + ' at ' + new Date(t * 1000).toISOString().replace('.000Z', 'Z') };
  }
  async function checkWitnesses() {
    if (witnessKeys.length === 0 || !size || result.className.indexOf('fail') >= 0) return;
    var s = step('Check your witness policy: ' + threshold + ' of the ' + witnessKeys.length +
      ' witnesses named must have cosigned a checkpoint consistent with the one verified above.');
    if (!(threshold >= 1 && threshold <= witnessKeys.length && Math.floor(threshold) === threshold))
      fail(s, 'the threshold must be a whole number from 1 to ' + witnessKeys.length);
    var ws = [];
    for (var i = 0; i < witnessKeys.length; i++) {
      try { ws.push(await parseWitness(witnessKeys[i])); } catch (e) { fail(s, e.message); }
    }
    var records = (await get('/api/chain/witnesses', 'json')).witnesses || [];
    var logKey = await importEd25519(pub);
    var counted = [], missing = [];
    for (var k = 0; k < ws.length; k++) {
      var record = null;
      for (var r = 0; r < records.length; r++) if (records[r].witness === ws[k].name) record = records[r];
      var finding = await witnessFinding(ws[k], record, logKey);
      if (typeof finding === 'string') missing.push(finding); else counted.push(finding.text);
    }
    if (counted.length < threshold)
      fail(s, 'the witness policy is not met: ' + counted.length + ' of ' + ws.length + ' cosigned, ' + threshold +
        ' required. ' + counted.concat(missing).join('; '));
    s.ok(counted.concat(missing).join('; '));
    result.textContent += ' Witness policy met: ' + counted.length + ' of ' + ws.length + ' named witnesses cosigned (' +
      threshold + ' required).';
  }

  var keyName, keyId, pub, note, text, size, rootHash, index;
  var s1 = step('Parse the verifier key printed on this page, and check its key ID.');
  Promise.resolve().then(function () {
    var i = vkey.indexOf('+'), j = vkey.indexOf('+', i + 1);
    if (i < 1 || j < 0) fail(s1, 'the verifier key is not name+id+key');
    keyName = vkey.slice(0, i);
    keyId = vkey.slice(i + 1, j).toLowerCase();
    var typed = b64(vkey.slice(j + 1));
    if (typed.length !== 33 || typed[0] !== 1) fail(s1, 'the verifier key is not an Ed25519 key');
    pub = typed.slice(1);
    return sha256(concat([enc.encode(keyName), new Uint8Array([10, 1]), pub])).then(function (d) {
      if (hex(d.slice(0, 4)) !== keyId) fail(s1, 'the key ID does not match the key');
      s1.ok(keyName + ', key ID ' + keyId);
    });
  }).then(function () {
    var s2 = step('Fetch the signed checkpoint and check its Ed25519 signature with WebCrypto.');
    return get('/api/chain/checkpoint', 'text').then(function (body) {
      note = body;
      var split = note.lastIndexOf('\n\n');
      if (split < 0) fail(s2, 'the checkpoint has no signature block');
      text = note.slice(0, split + 1);
      var lines = note.slice(split + 2).split('\n');
      var sig = null;
      for (var k = 0; k < lines.length; k++) {
        var m = /^\u2014 (\S+) (\S+)$/.exec(lines[k]);
        if (!m || m[1] !== keyName) continue;
        var blob = b64(m[2]);
        if (hex(blob.slice(0, 4)) === keyId) sig = blob.slice(4);
      }
      if (!sig) fail(s2, 'no signature by ' + keyName + ' on the checkpoint');
      return crypto.subtle.importKey('raw', pub, { name: 'Ed25519' }, false, ['verify']).then(function (key) {
        return crypto.subtle.verify({ name: 'Ed25519' }, key, sig, enc.encode(text));
      }).then(function (valid) {
        if (!valid) fail(s2, 'the signature does not verify');
        s2.ok('signature by ' + keyName + ' verifies');
      });
    });
  }).then(function () {
    var s3 = step('Read the tree size and root hash from the signed text.');
    var lines = text.slice(0, -1).split('\n');
    if (lines.length < 3 || lines[0] !== keyName) fail(s3, 'the checkpoint is not for origin ' + keyName);
    if (!/^(0|[1-9][0-9]*)$/.test(lines[1])) fail(s3, 'the tree size is malformed');
    size = Number(lines[1]);
    rootHash = b64(lines[2]);
    if (rootHash.length !== 32) fail(s3, 'the root is not a SHA-256 hash');
    s3.ok('origin ' + lines[0] + ', ' + size + ' leaves, root ' + lines[2]);
    if (size === 0) {
      result.className = 'result ok';
      result.textContent = 'Checkpoint verified: the log is empty, so there is no leaf to prove yet.';
      return null;
    }
    var asked = new URLSearchParams(location.search).get('index');
    // A leaf the log does not hold is said, never swapped for another (the page's leafProblem says it too).
    if (asked !== null && !(/^[0-9]{1,15}$/.test(asked) && Number(asked) < size)) {
      result.className = 'result fail';
      result.textContent = /^[0-9]{1,15}$/.test(asked)
        ? 'Leaf ' + Number(asked) + ' is not in the log: it holds ' + size + ' leaves, numbered 0 to ' + (size - 1) + '. The checkpoint is verified; no leaf was checked.'
        : '"' + asked.slice(0, 40) + '" is not a leaf number. The checkpoint is verified; no leaf was checked.';
      return null;
    }
    index = asked !== null ? Number(asked) : size - 1;
    var s4 = step('Fetch leaf ' + index + ' and hash its exact bytes: SHA-256(0x00 ‖ bytes).');
    return get('/api/chain/entries/' + index, 'bytes').then(function (bytes) {
      return sha256(concat([new Uint8Array([0]), bytes])).then(function (leaf) {
        s4.ok(bytes.length + ' bytes, leaf hash ' + toB64(leaf));
        showLeaf(bytes, index);
        var s5 = step('Fetch the inclusion proof of leaf ' + index + ' in the tree of ' + size + ' leaves and fold it up to a root.');
        return get('/api/chain/proof/inclusion?index=' + index + '&size=' + size, 'json').then(function (proof) {
          var hashes = (proof.hashes || []).map(b64);
          return foldInclusion(leaf, index, size, hashes).then(function (computed) {
            if (!computed) fail(s5, 'the proof has the wrong length for this position');
            s5.ok(hashes.length + ' hashes, computed root ' + toB64(computed));
            var s6 = step('Compare the computed root with the signed root.');
            if (!equal(computed, rootHash)) fail(s6, 'the roots differ');
            s6.ok('they are equal');
            result.className = 'result ok';
            result.textContent = 'Leaf ' + index + ' verified: it is in the log of ' + size + ' leaves signed by ' + keyName + '.';
          });
        });
      });
    });
  }).then(checkWitnesses).catch(function (error) {
    if (result.className.indexOf('fail') < 0) {
      result.className = 'result fail';
      result.textContent = 'Not verified: ' + (error && error.message ? error.message : String(error));
    }
  });
})();
`;
