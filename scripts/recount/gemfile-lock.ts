/**
 * Gemfile.lock: distinct gem names listed (at four spaces) under `specs:` in GEM sections whose
 * `remote:` is https://rubygems.org/, plus distinct GitHub repositories of GIT sections that list
 * specs. PATH sections (the project's own gems), other gem servers, other git hosts and plugin
 * sources are left out.
 */
export default function recount(text: string): number {
  const counted = new Set<string>();
  let header = '';
  let remote = '';
  for (const line of text.split(/\r?\n/)) {
    if (/^\S/.test(line)) {
      header = line.trim();
      remote = '';
    } else if (line.startsWith('  remote:')) remote = line.slice('  remote:'.length).trim();
    else if (/^ {4}\S/.test(line)) {
      const name = line.trim().split(' ')[0]!;
      if (header === 'GEM' && remote === 'https://rubygems.org/') counted.add(`gem:${name}`);
      const github = /github\.com[/:]([^/]+)\/(.+?)(?:\.git)?\/?$/.exec(remote);
      if (header === 'GIT' && github) counted.add(`github:${github[1]!.toLowerCase()}/${github[2]!.toLowerCase()}`);
    }
  }
  return counted.size;
}
