/** A JSON value that is an object (not null, not an array): what every JSON reader walks. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value as a JSON object, or null when it is none: an upstream's answer read field by field. */
export function asJsonObject(v: unknown): Record<string, unknown> | null {
  return isJsonObject(v) ? v : null;
}
