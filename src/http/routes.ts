/**
 * Which methods a path answers to, from the registered routes: the difference between "no such
 * address" (404) and "not with that method" (405, with Allow).
 */
export function methodsAllowedFor(routes: readonly { method: string; path: string }[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    if (patternOf(route.path).test(path)) methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

const patterns = new Map<string, RegExp>();

function patternOf(routePath: string): RegExp {
  let pattern = patterns.get(routePath);
  if (!pattern) {
    const source = routePath
      .split('/')
      // A parameter with its own pattern (`:id{.+}`) matches only that pattern.
      .map((part) =>
        part.startsWith(':') ? `(?:${ownPattern(part) ?? '[^/]+'})` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    // Exactly as hono's router matches: a trailing slash is another address (see trailingSlashAnswer).
    pattern = new RegExp(`^${source}$`);
    patterns.set(routePath, pattern);
  }
  return pattern;
}

/** The pattern of a route parameter written `:name{pattern}`, if it has one. */
function ownPattern(part: string): string | null {
  const open = part.indexOf('{');
  return open >= 0 && part.endsWith('}') && part.length - open > 2 ? part.slice(open + 1, -1) : null;
}
