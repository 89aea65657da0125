/** robots.txt, llms.txt and prices.json (sitemap.xml: sitemap.ts). */
import { COMPONENT_KINDS } from '../domain/component.js';
import { NOT_CHECKED, NOT_CHECKED_MEANING, STATE_DEFINITIONS, STATES } from '../domain/state.js';

export function robotsTxt(baseUrl: string): string {
  return [
    '# Tended: a dated record of whether software components are still maintained (CC-BY-4.0).',
    'User-agent: *',
    'Allow: /',
    // The MCP endpoint is for tools, and submissions are POSTs: neither is a page to crawl.
    'Disallow: /mcp',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function llmsTxt(baseUrl: string, minDependents: number): string {
  return `# Tended

> A dated, verifiable record of whether software components (GitHub repositories; npm, PyPI, Maven, Go, Cargo, NuGet, RubyGems and Composer packages; container base images and the OS releases under them) are still maintained. Every observation has a date, a state and the evidence it rests on; a date with no observation is "not observed"; no composite score is ever computed. Every observation is a leaf of a Merkle log with a signed C2SP checkpoint. Data: CC-BY-4.0.

States (each as the API defines it): ${STATES.map((st) => `${st} (${STATE_DEFINITIONS[st]})`).join('; ')}. An answer with state not_observed and no observation date means ${NOT_CHECKED}: ${NOT_CHECKED_MEANING}; with an observation date, a read made that day that failed.

## Pages

- [Home](${baseUrl}/): what Tended is, package search, recently changed states
- Package pages, "is {name} still maintained?", for packages with at least ${minDependents} dependent package(s) by the latest census; add ?as_of=YYYY-MM-DD for a past date: ${baseUrl}/npm/{name} and ${baseUrl}/npm/@{scope}/{name}, ${baseUrl}/pypi/{name}, ${baseUrl}/maven/{groupId}/{artifactId}, ${baseUrl}/golang/{module path}, ${baseUrl}/cargo/{crate}, ${baseUrl}/gem/{name}, ${baseUrl}/composer/{vendor}/{name}
- [Methodology](${baseUrl}/methodology): every state, threshold, source and censoring rule
- [Verify](${baseUrl}/verify): check the signed checkpoint and an inclusion proof in the browser; JSON with Accept: application/json
- [Terms](${baseUrl}/terms) and [Separation](${baseUrl}/separation): CC-BY-4.0, a record not advice, paying buys rate never a different record
- [Sitemap](${baseUrl}/sitemap.xml)

## API

- [API reference](${baseUrl}/api/v1/reference): every operation, its parameters and answers, readable; the same as the [OpenAPI description](${baseUrl}/api/v1/docs)
- GET /api/v1/entity/{owner}/{repo}?as_of=YYYY-MM-DD: one GitHub repository's dated series
- GET /api/v1/org/{org}?as_of=: the held observations under an owner
- GET /v1/trust_score/{kind}/{id}: the dated facts a trust decision rests on (state, evidence, series, adoption, inclusion proof); no score is computed. Also /v1/schema_history/{kind}/{id} and /v1/dependency_risk/{kind}/{id}
- GET /badge/{kind}/{id}.svg: a README badge of the latest state and its date (/badge/{kind}/{id}.json for the same as JSON)
- POST /api/v1/manifest: {"components":[{"name","kind"}]} (kinds ${COMPONENT_KINDS.join(', ')}) or a pasted workflow, Dockerfile, package.json, requirements.txt, go.mod, pom.xml, Cargo.toml, a NuGet project file, Gemfile or composer.json; one dated result per component
- POST /api/v1/sbom: CycloneDX or SPDX (max 4 MB, never stored); one dated result per component
- GET /api/chain/head, /api/chain/checkpoint, /api/chain/entries/{index}, /api/chain/proof/inclusion, /api/chain/proof/consistency
- POST /mcp: the same reads as MCP tools (streamable HTTP, stateless)
- [Prices and rate limits](${baseUrl}/prices.json)
`;
}

export function pricesJson(free: number, keyed: number) {
  return {
    tiers: [
      { name: 'free', requests_per_minute: free, key_required: false, price: 0 },
      {
        name: 'keyed',
        requests_per_minute: keyed,
        key_required: true,
        key_header: 'X-API-Key',
        // This instance's operator issues keys (`tended keys create`); it publishes no price of its own.
        price: null,
      },
    ],
    rate_algorithm: 'token bucket per client IP',
    same_record_for_everyone: true,
    note: 'Paying buys rate, never a different record: every tier reads the same observations, states and checkpoints.',
    license: 'CC-BY-4.0',
  };
}
