/**
 * Where a JavaScript lockfile says a package came from, for the four lockfile parsers
 * (package-lock, yarn-lock, pnpm-lock, bun-lock): the npm registry (a reference to the npm
 * package), a GitHub repository (a `github` component, as package.json's specs are read), or
 * something Tended cannot observe (local files, another git host, a bare tarball URL).
 */
import npa from 'npm-package-arg';
import { normaliseComponent } from '../domain/component.js';
import type { ComponentRef } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';

export type NpmSource = { ref: ComponentRef } | { reason: string };

export const WORKSPACE_REASON = 'a package of this workspace (local files), not the published package of that name.';
export const LOCAL_REASON = 'a local path, not a published package.';
export const TARBALL_REASON = 'a tarball URL, not a registry package; its source cannot be identified.';
export const OTHER_GIT_REASON =
  'a git repository not on GitHub; Tended observes GitHub repositories and registry packages only.';

/** The npm package `name`, or the reason it is no valid npm name. */
export function npmPackage(name: string): NpmSource {
  try {
    return { ref: normaliseComponent('npm', name) };
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return { reason: `not a valid npm name: ${e.message}` };
  }
}

const GIT_LIKE = /^(?:git\+|git:|github:|gitlab:|bitbucket:|git@)/;

/**
 * The source of package `name` resolved from `resolved` (a package-lock `resolved`, a yarn
 * `resolved`/`resolution` URL, a pnpm `resolution.tarball`): absent or a registry tarball
 * (`…/<name>/-/<file>.tgz`, any registry host) is the npm package.
 */
export function sourceOfResolved(name: string, resolved: string | undefined): NpmSource {
  if (resolved === undefined || resolved === '') return npmPackage(name);
  if (GIT_LIKE.test(resolved)) return gitSource(name, resolved);
  if (/^https?:\/\//.test(resolved)) {
    if (resolved.includes('/-/') && !resolved.includes('codeload.github.com')) return npmPackage(name);
    if (/^https?:\/\/(?:codeload\.)?github\.com\//.test(resolved)) return gitSource(name, githubOf(resolved));
    return { reason: TARBALL_REASON };
  }
  if (resolved.startsWith('file:') || resolved.startsWith('link:') || !resolved.includes(':'))
    return { reason: LOCAL_REASON };
  return { reason: TARBALL_REASON };
}

/** `https://codeload.github.com/u/r/tar.gz/sha` or `https://github.com/u/r/…` → `github:u/r`. */
function githubOf(url: string): string {
  const parts = url.replace(/^https?:\/\/(?:codeload\.)?github\.com\//, '').split('/');
  return `github:${parts[0] ?? ''}/${(parts[1] ?? '').replace(/\.git$/, '')}`;
}

export function gitSource(name: string, spec: string): NpmSource {
  let parsed: npa.Result;
  try {
    // `where` is fixed so that specs never consult the process's working directory.
    parsed = npa.resolve(name, spec.slice(0, 2_000), '/');
  } catch {
    return { reason: OTHER_GIT_REASON };
  }
  if (parsed.type === 'git' && parsed.hosted?.type === 'github' && parsed.hosted.user && parsed.hosted.project) {
    try {
      return { ref: normaliseComponent('github', `${parsed.hosted.user}/${parsed.hosted.project}`) };
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
    }
  }
  return { reason: OTHER_GIT_REASON };
}
