/**
 * go.sum: distinct module paths with at least one content line (a version not ending in
 * `/go.mod`); modules with only `/go.mod` lines were never downloaded and are not counted.
 */
export default function count(text: string): number {
  const modules = new Set<string>();
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ');
    if (fields.length === 3 && !fields[1]!.endsWith('/go.mod')) modules.add(fields[0]!);
  }
  return modules.size;
}
