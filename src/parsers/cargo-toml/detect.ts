/** A pasted Cargo.toml: a `[package]` or `[workspace]` table and a dependencies table. */
export function looksCargoToml(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 50_000);
  return (
    /^\[(?:package|workspace)\]\s*$/m.test(head) &&
    /^\[(?:[\w.'"()-]*\.)?(?:dev-|build-)?dependencies\]\s*$/m.test(head)
  );
}
