/** A pasted go.mod: its first meaningful line is the `module` directive (comments may come before it). */
export function looksGoMod(text: string): boolean {
  for (const raw of text
    .replace(/^\uFEFF/, '')
    .slice(0, 100_000)
    .split(/\r?\n/, 200)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) continue;
    return /^module\s+\S/.test(line);
  }
  return false;
}
