import type { ComponentKind } from '../domain/component.js';

/**
 * The component's JSON answer: the entity route for a repository; packages and images have no GET
 * entity route (spec §4.1), so their trust_score facts, which carry the same dated state.
 */
export function answerPath(ref: { kind: ComponentKind; id: string }): string {
  const id = ref.id.split('/').map(encodeURIComponent).join('/');
  return ref.kind === 'github' ? `/api/v1/entity/${id}` : `/v1/trust_score/${ref.kind}/${id}`;
}
