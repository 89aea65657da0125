/** A pasted SDK-style project or packages.config: XML with PackageReference / PackageVersion, or <packages><package id=. */
export function looksNugetProject(text: string): boolean {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 20_000);
  if (!head.startsWith('<')) return false;
  return (
    /<Package(?:Reference|Version)\s/.test(head) || (/<packages[\s>]/.test(head) && /<package[ \t]+id=/.test(head))
  );
}
