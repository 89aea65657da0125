/** A pasted pom.xml: XML whose root element is <project> (in Maven's namespace, or none). */
export function looksPom(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').slice(0, 4096);
  if (!head.trimStart().startsWith('<')) return false;
  return /<project[\s>]/.test(head) && (/maven\.apache\.org\/POM/.test(head) || /<modelVersion>/.test(head));
}
