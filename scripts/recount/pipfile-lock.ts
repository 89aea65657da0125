/**
 * Pipfile.lock: distinct PEP 503-normalised names across `default` and `develop` whose entry pins a
 * `version` and comes from no git repository, path, file or editable install (those are counted
 * apart), plus distinct GitHub repositories of git entries. Both corpus files use only PyPI.
 */
export default function recount(text: string): number {
  const doc = JSON.parse(text) as Record<string, Record<string, Record<string, unknown>>>;
  const counted = new Set<string>();
  for (const section of ['default', 'develop'])
    for (const [name, entry] of Object.entries(doc[section] ?? {})) {
      if (typeof entry['git'] === 'string') {
        const github = /github\.com[/:]([^/]+)\/(.+?)(?:\.git)?\/?$/.exec(entry['git']);
        if (github) counted.add(`github:${github[1]!.toLowerCase()}/${github[2]!.toLowerCase()}`);
      } else if (!('path' in entry) && !('file' in entry) && entry['editable'] !== true && 'version' in entry)
        counted.add(`pypi:${name.toLowerCase().replace(/[-_.]+/g, '-')}`);
    }
  return counted.size;
}
