import type { AdversarialInput } from './adversarial-inputs.js';

/**
 * How the red-team shapes are sent, shared by the fire tests and bench:adversarial: the size of
 * each where the red-team table gave one other than 4 MB, the HTTP submission of a body, and the
 * MCP check call sized to the body limit.
 */
const SIZE: Record<string, number> = {
  'workflow: many distinct keys': 429_000,
  'SPDX YAML: many distinct keys': 429_000,
  'Dockerfile: many stages': 2_800_000,
  'requirements: many distinct short names': 59_000,
};
const MCP_BODY_LIMIT = 4 * 1024 * 1024;

/** The size the red-team table sent `input` at. */
export const redTeamSize = (input: AdversarialInput): number => SIZE[input.name] ?? 4_000_000;

/** POSTs `body` to the route `input` names, with its format or content type. */
export function postSubmission(base: string, input: AdversarialInput, body: string): Promise<Response> {
  const path = input.route === 'manifest' ? '/api/v1/manifest' : '/api/v1/sbom';
  const json = input.format === 'json';
  const query = input.route === 'manifest' && input.format && !json ? `?format=${input.format}` : '';
  const type = input.route === 'sbom' ? input.format || 'application/json' : json ? 'application/json' : 'text/plain';
  return fetch(`${base}${path}${query}`, { method: 'POST', headers: { 'Content-Type': type }, body });
}

export const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A check_manifest or check_sbom call of `input`, as large as fits the body limit once escaped into JSON-RPC. */
export function mcpCheckRequest(input: AdversarialInput, size: number): string {
  const tool = input.route === 'sbom' ? 'check_sbom' : 'check_manifest';
  const format = input.route === 'manifest' && input.format && input.format !== 'json' ? input.format : undefined;
  for (;;) {
    const request = JSON.stringify(toolCall(1, tool, { content: input.make(size), ...(format ? { format } : {}) }));
    if (Buffer.byteLength(request) <= MCP_BODY_LIMIT) return request;
    size = Math.floor((size * MCP_BODY_LIMIT) / Buffer.byteLength(request) / 1.01);
  }
}

/** POSTs a JSON-RPC body to /mcp. */
export function postMcp(base: string, body: string): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  });
}
