/**
 * A pasted package-lock.json when no file name says so: a JSON object whose first lines give a
 * numeric "lockfileVersion" (npm writes it after name and version). Bun's text lockfile also has
 * one, but as its first key and with "workspaces" after it.
 */
export function looksPackageLock(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 2_000);
  return /^\s*\{/.test(head) && /"lockfileVersion"\s*:\s*[123]\s*,\s*"requires"\s*:/.test(head);
}
