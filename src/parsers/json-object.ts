/** A JSON value that is an object (not null, not an array): what every JSON lockfile reader walks. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
