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
  }).catch(function (error) {
    if (result.className.indexOf('fail') < 0) {
      result.className = 'result fail';
      result.textContent = 'Not verified: ' + (error && error.message ? error.message : String(error));
    }
  });
})();
`;
