import { z } from 'zod';
import { COMPONENT_KINDS, normaliseComponent } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import type { ComponentReference, ParseResult } from '../parsers/reference.js';
import { parseManifest } from './parse-submission.js';

export const ComponentsBody = z.object({
  components: z
    .array(
      z.object({
        name: z.string().min(1, 'name must name the component, e.g. "express" or "expressjs/express"'),
        kind: z.enum(COMPONENT_KINDS, {
          error: `kind must be one of ${COMPONENT_KINDS.join(', ')} (npm is the JavaScript registry)`,
        }),
      }),
    )
    .max(10_000, 'at most 10,000 components per request'),
});
export const PastedBody = z.object({ filename: z.string().max(255).optional(), content: z.string() });

/** A JSON body that does not parse: answered 400 with where it broke. */
export class MalformedJsonError extends Error {
  constructor(reason: string) {
    super(
      `The body is not valid JSON (${reason.slice(0, 120)}). Send {"components":[{"name","kind"}]} or {"filename","content"}.`,
    );
    this.name = 'MalformedJsonError';
  }
}

/**
 * A JSON manifest body: a components list, a pasted file, or (a package.json sent as JSON) the
 * file itself. Run where the parse runs (the parse worker): JSON.parse of a hostile 4 MB body is
 * as much a parse as any other format's.
 */
export function manifestFromJson(text: string, format: string | undefined): ParseResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new MalformedJsonError((error as Error).message);
  }
  if (body !== null && typeof body === 'object' && 'components' in body) {
    const parsed = ComponentsBody.safeParse(body);
    if (!parsed.success) {
      throw new ValidationError(
        parsed.error.issues.slice(0, 20).map((i) => ({
          loc: ['body', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
          msg: i.message,
          type: i.code,
        })),
      );
    }
    const references: ComponentReference[] = parsed.data.components.map((item, i) => {
      try {
        return { ref: normaliseComponent(item.kind, item.name), input: item.name, location: `components[${i}]` };
      } catch (error) {
        if (error instanceof ValidationError)
          throw new ValidationError(
            error.issues.map((issue) => ({ ...issue, loc: ['body', 'components', i, 'name'] })),
          );
        throw error;
      }
    });
    return { format: 'components', references, unresolved: [] };
  }
  if (body !== null && typeof body === 'object' && 'content' in body) {
    const parsed = PastedBody.safeParse(body);
    if (!parsed.success)
      throw new ValidationError([
        { loc: ['body', 'content'], msg: 'content must be the pasted file as a string', type: 'value_error' },
      ]);
    return parseManifest(parsed.data.content, { format, filename: parsed.data.filename });
  }
  return parseManifest(text, { format: format ?? 'package-json' });
}
