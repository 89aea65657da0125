/**
 * NuGet packages.lock.json: distinct package ids (lower-cased: NuGet ids are case-insensitive)
 * over every framework and runtime section, leaving out `Project` entries (projects of the same
 * solution) and entries with no `resolved` version.
 */
export default function count(text: string): number {
  const doc = JSON.parse(text) as {
    dependencies: Record<string, Record<string, { type?: string; resolved?: string }>>;
  };
  const ids = new Set<string>();
  for (const section of Object.values(doc.dependencies))
    for (const [id, entry] of Object.entries(section))
      if (entry.type !== 'Project' && entry.resolved !== undefined) ids.add(id.toLowerCase());
  return ids.size;
}
