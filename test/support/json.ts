/**
 * Typed reads of a real server's JSON answers. `res.json()` is `any`; a test names the shape it
 * expects (the answer types the service itself builds, from src/, wherever they exist) so the
 * compiler and the linter check every field the test touches. The shape is what the test asserts;
 * this only says what the test believes it is reading.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The body of `res` as JSON of the shape `T` (default: any JSON value, to be narrowed by the test). */
export async function jsonOf<T = Json>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** `text` parsed as JSON of the shape `T`. */
export function parsedAs<T = Json>(text: string): T {
  return JSON.parse(text) as T;
}

/** Every error answer of the API but 422: `{"detail": "<sentence>"}`. */
export interface DetailAnswer {
  detail: string;
}

/** A 422 in the spec's shape: `detail` lists what is wrong, where. */
export interface ValidationAnswer {
  detail: { loc: (string | number)[]; msg: string; type: string }[];
}
