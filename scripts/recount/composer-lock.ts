/**
 * composer.lock: distinct package names (lower-cased, as Packagist compares them) in `packages`
 * and `packages-dev`, leaving out packages installed from a local `path` repository.
 */
export default function count(text: string): number {
  const doc = JSON.parse(text) as Record<string, { name: string; dist?: { type?: string } }[] | undefined>;
  const names = new Set<string>();
  for (const pkg of [...(doc.packages ?? []), ...(doc['packages-dev'] ?? [])])
    if (pkg.dist?.type !== 'path') names.add(pkg.name.toLowerCase());
  return names.size;
}
