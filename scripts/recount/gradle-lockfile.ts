/**
 * Gradle lock files: distinct `group:artifact` over the lines `group:artifact:version[=configurations]`,
 * leaving out comments and the `empty=` line.
 */
export default function count(text: string): number {
  const packages = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('empty=')) continue;
    const [group, artifact] = line.split('=')[0]!.split(':');
    packages.add(`${group}:${artifact}`);
  }
  return packages.size;
}
