// Runs the spec-surface conformance check and fails on any failure not listed in
// .ci/conformance-pending.txt (checks for routes whose issues are still open). A pending check that
// now passes also fails the run, so the list only ever shrinks. A third argument names the script's
// mode (`ratelimit`); pending lines for that mode start with `[ratelimit] `.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [script, base, mode] = process.argv.slice(2);
const lines = readFileSync(new URL('./conformance-pending.txt', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const modePrefix = /^\[(\w+)\] /;
const pending = new Set(
  lines.filter((l) => (modePrefix.exec(l)?.[1] ?? null) === (mode ?? null)).map((l) => l.replace(modePrefix, '')),
);
let out;
try {
  out = execFileSync('node', [script, base, ...(mode ? [mode] : [])], { encoding: 'utf8' });
} catch (error) {
  out = error.stdout ?? '';
}
process.stdout.write(out);
const failed = out
  .split('\n')
  .filter((l) => l.startsWith('FAIL '))
  .map((l) => l.slice(5).split(':', 1)[0]);
const unexpected = failed.filter((f) => !pending.has(f));
const nowPassing = [...pending].filter((p) => !failed.includes(p));
if (!/\b\d+ passed, \d+ failed/.test(out)) unexpected.push('the conformance script did not finish');
for (const f of unexpected) console.log(`conformance: unexpected failure: ${f}`);
for (const p of nowPassing) console.log(`conformance: now passing, remove from .ci/conformance-pending.txt: ${p}`);
console.log(
  `conformance: ${failed.length - unexpected.length} pending (open issues), ${unexpected.length} unexpected, ${nowPassing.length} stale`,
);
process.exit(unexpected.length || nowPassing.length ? 1 : 0);
