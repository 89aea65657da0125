import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSbom } from '../src/operations/parse-submission.js';
import { CORPUS, corpusRows } from './support/corpus.js';

/**
 * Issue 16: how much of a real SBOM Tended looks up. Of the entries that carry a purl, the share
 * that names a component Tended reads (a result), rather than one set aside with a reason (a
 * purl of a type Tended does not observe counts as set aside). Every entry is accounted for
 * either way. Every file must be looked up at 95 % or more, or be listed in BELOW with its exact
 * figure and the reason; the figures are printed for the closing note.
 */
const UNOBSERVED_TYPE = /package URL is of type "([^"]+)"/;

/** Files below 95 %: their figure, and why. */
const BELOW: Record<string, [looked: number, of: number, why: string]> = {
  // One of five entries is the Go standard library (pkg:golang/stdlib), which no module proxy serves.
  'cyclonedx/trivy-nested-packages-bom.json': [4, 5, 'pkg:golang/stdlib is the Go toolchain, not a module'],
  // One of five is the image's Elasticsearch as Bitnami packages it (pkg:bitnami), a catalogue Tended does not observe.
  'spdx/trivy-elasticsearch.spdx.json': [4, 5, 'pkg:bitnami is a type Tended does not observe'],
  // A cluster's KBOM: the six images (pkg:oci) are looked up; five Kubernetes components are pkg:k8s,
  // and Trivy names the Docker engine pkg:golang/docker, which is no Go module path.
  'cyclonedx/trivy-minikube-kbom.cdx.json': [6, 12, 'pkg:k8s is not observed; pkg:golang/docker names no module'],
};

const files = [...corpusRows('cyclonedx'), ...corpusRows('spdx')].map((r) => r.file);

describe('SBOM entries looked up, per corpus file', () => {
  it.each(files)('%s', (file) => {
    const r = parseSbom(readFileSync(`${CORPUS}${file}`, 'utf8'), '');
    const withPurl = r.unresolved.filter((u) => u.input.startsWith('pkg:'));
    const unobserved = withPurl.filter((u) => UNOBSERVED_TYPE.test(u.reason));
    const total = r.references.length + withPurl.length;
    const share = total === 0 ? 1 : r.references.length / total;
    console.info(
      `${file}: ${r.references.length} of ${total} entries with a purl looked up (${(100 * share).toFixed(1)} %)` +
        (unobserved.length > 0
          ? `; set aside by type: ${[...new Set(unobserved.map((u) => UNOBSERVED_TYPE.exec(u.reason)![1]))].join(', ')}`
          : ''),
    );
    // Every purl set aside says why, in a sentence a person can act on.
    for (const u of withPurl) expect(u.reason.length, u.input).toBeGreaterThan(20);
    const below = BELOW[file];
    if (below) expect([r.references.length, total], below[2]).toEqual(below.slice(0, 2));
    else expect(share, `${file}: looked up`).toBeGreaterThanOrEqual(0.95);
  });
});
