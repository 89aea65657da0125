// The generated SBOM bench:sbom posts and bench:adversarial hands to a parse worker: ~4 MB of
// CycloneDX JSON, 10,000 npm components with the fields real generators write.
export const SBOM_COMPONENTS = 10_000;

export const sbomComponents = Array.from({ length: SBOM_COMPONENTS }, (_, i) => ({
  type: 'library',
  'bom-ref': `pkg:npm/bench-package-${i}@1.${i % 50}.0`,
  name: `bench-package-${i}`,
  version: `1.${i % 50}.0`,
  purl: `pkg:npm/bench-package-${i}@1.${i % 50}.0`,
  description: 'A generated bench:sbom component.',
  licenses: [{ license: { id: 'MIT' } }],
  hashes: [{ alg: 'SHA-512', content: 'ab'.repeat(64) }],
}));

export const sbomBody = JSON.stringify({
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  version: 1,
  metadata: { component: { type: 'application', name: 'bench' } },
  components: sbomComponents,
});
