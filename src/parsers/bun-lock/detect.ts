/**
 * A pasted bun.lock when no file name says so: a JSON object whose first key is a numeric
 * "lockfileVersion" and which has "workspaces" (package-lock.json puts "name" first and has none).
 */
export function looksBunLock(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 2_000);
  return /^\s*\{\s*"lockfileVersion"\s*:\s*\d+\s*,/.test(head) && head.includes('"workspaces"');
}
