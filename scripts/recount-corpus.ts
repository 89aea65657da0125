/**
 * Recounts the lockfiles of the parsing corpus without Tended's parsers, and compares each count
 * with MANIFEST.tsv's expected_components: `npx tsx scripts/recount-corpus.ts`. Each corpus folder
 * of lockfiles has its counter in scripts/recount/<folder>.ts (a default export: text → the number of
 * distinct registry packages the file resolves), written from the format's own documentation with a
 * plain parser (JSON.parse, the yaml package, smol-toml, line reading), so a parser bug cannot
 * hide in its own expected count. Exit 1 on any difference.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const corpus = fileURLToPath(new URL('../test/corpus/', import.meta.url));
const rows = readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8')
  .split('\n')
  .slice(1)
  .filter((l) => l.trim() !== '')
  .map((l) => l.split('\t'));

let differences = 0;
let counted = 0;
for (const [file = '', , , , , , expected = ''] of rows) {
  const folder = file.split('/')[0]!;
  const counter = fileURLToPath(new URL(`./recount/${folder}.ts`, import.meta.url));
  if (!existsSync(counter)) continue;
  const recount = ((await import(counter)) as { default: (text: string) => number }).default;
  const got = recount(readFileSync(join(corpus, file), 'utf8'));
  counted += 1;
  const same = got === Number(expected);
  if (!same) differences += 1;
  console.log(`${same ? 'same' : 'DIFFERENT'}\t${file}\texpected ${expected}\trecounted ${got}`);
}
console.log(`${counted} files recounted, ${differences} different`);
process.exit(differences > 0 || counted === 0 ? 1 : 0);
