/** Gradle writes this first line into every lock file it generates. */
const HEADER = '# This is a Gradle generated file for dependency locking.';
/** `group:artifact:version=conf1,conf2`, or `empty=conf…`; the per-configuration files (Gradle 4.8–5) drop `=…`. */
const ENTRY = /^(?:[\w.-]+:[\w.-]+:[^\s=:]+(?:=[\w,-]*)?|empty=[\w,-]*)$/;

/** A pasted gradle.lockfile: Gradle's header comment, or first lines (up to five) that are all lock entries. */
export function looksGradleLockfile(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 4_096);
  if (head.startsWith(HEADER)) return true;
  const lines = head
    .split(/\r?\n/, 6)
    .slice(0, 5)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  return (
    lines.length > 0 && lines.every((l) => l.length < 1_000 && ENTRY.test(l)) && lines.some((l) => l.includes('='))
  );
}
