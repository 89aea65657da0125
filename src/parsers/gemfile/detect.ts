/** A pasted Gemfile: a `source "https://rubygems.org"` line, or `gem "…"` lines. */
export function looksGemfile(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 50_000);
  return /^[ \t]*source[ \t]+["']https?:\/\/rubygems\.org/m.test(head) || /^[ \t]*gem[ \t]+["'][\w.-]+["']/m.test(head);
}
