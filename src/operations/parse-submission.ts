import { ValidationError } from '../domain/errors.js';
import { looksCycloneDx } from '../parsers/cyclonedx/detect.js';
import { parseCycloneDx } from '../parsers/cyclonedx/parse.js';
import { looksDockerfile } from '../parsers/dockerfile/detect.js';
import { parseDockerfile } from '../parsers/dockerfile/parse.js';
import { looksGemfileLock } from '../parsers/gemfile-lock/detect.js';
import { parseGemfileLock } from '../parsers/gemfile-lock/parse.js';
import { looksGemfile } from '../parsers/gemfile/detect.js';
import { parseGemfile } from '../parsers/gemfile/parse.js';
import { looksGoMod } from '../parsers/go-mod/detect.js';
import { parseGoMod } from '../parsers/go-mod/parse.js';
import { looksPackageJson } from '../parsers/package-json/detect.js';
import { looksCargoLock } from '../parsers/cargo-lock/detect.js';
import { parseCargoLock } from '../parsers/cargo-lock/parse.js';
import { looksCargoToml } from '../parsers/cargo-toml/detect.js';
import { parseCargoToml } from '../parsers/cargo-toml/parse.js';
import { looksComposerJson } from '../parsers/composer-json/detect.js';
import { looksComposerLock } from '../parsers/composer-lock/detect.js';
import { parseComposerLock } from '../parsers/composer-lock/parse.js';
import { looksGoSum } from '../parsers/go-sum/detect.js';
import { parseGoSum } from '../parsers/go-sum/parse.js';
import { looksGradleLockfile } from '../parsers/gradle-lockfile/detect.js';
import { parseGradleLockfile } from '../parsers/gradle-lockfile/parse.js';
import { looksNugetLock } from '../parsers/nuget-lock/detect.js';
import { parseNugetLock } from '../parsers/nuget-lock/parse.js';
import { parseComposerJson } from '../parsers/composer-json/parse.js';
import { looksNugetProject } from '../parsers/nuget-project/detect.js';
import { parseNugetProject } from '../parsers/nuget-project/parse.js';
import { looksBunLock } from '../parsers/bun-lock/detect.js';
import { BUN_LOCKB_SENTENCE, parseBunLock } from '../parsers/bun-lock/parse.js';
import { looksPackageLock } from '../parsers/package-lock/detect.js';
import { parsePackageLock } from '../parsers/package-lock/parse.js';
import { looksPnpmLock } from '../parsers/pnpm-lock/detect.js';
import { parsePnpmLock } from '../parsers/pnpm-lock/parse.js';
import { looksYarnLock } from '../parsers/yarn-lock/detect.js';
import { parseYarnLock } from '../parsers/yarn-lock/parse.js';
import { looksPom } from '../parsers/pom/detect.js';
import { parsePom } from '../parsers/pom/parse.js';
import { parsePackageJson } from '../parsers/package-json/parse.js';
import { looksPipfileLock } from '../parsers/pipfile-lock/detect.js';
import { parsePipfileLock } from '../parsers/pipfile-lock/parse.js';
import { looksPoetryLock } from '../parsers/poetry-lock/detect.js';
import { parsePoetryLock } from '../parsers/poetry-lock/parse.js';
import { MANIFEST_FORMATS, manifestFileNames, type ManifestFormat, type ParseResult } from '../parsers/reference.js';
import { looksRequirements } from '../parsers/requirements/detect.js';
import { parseRequirements } from '../parsers/requirements/parse.js';
import { looksSpdx } from '../parsers/spdx/detect.js';
import { parseSpdx } from '../parsers/spdx/parse.js';
import { looksUvLock } from '../parsers/uv-lock/detect.js';
import { parseUvLock } from '../parsers/uv-lock/parse.js';
import { looksWorkflow } from '../parsers/workflow/detect.js';
import { parseWorkflow } from '../parsers/workflow/parse.js';

/** What a caller wants besides the references: `lines`, each reference's line (a report names it). */
export interface ParseOptions {
  lines?: boolean;
}

interface Format {
  parse(text: string, options: ParseOptions): ParseResult;
  looks(text: string): boolean;
}

// In detection order: the JSON format first, then the more particular text shapes.
const MANIFESTS: Record<ManifestFormat, Format> = {
  // Before package.json: a Pipfile.lock's sources have a "name" and its entries a "version".
  'pipfile-lock': { parse: parsePipfileLock, looks: looksPipfileLock },
  // Before composer.json: a composer.lock holds each package's vendor/name requirements too.
  'composer-lock': { parse: (text) => parseComposerLock(text), looks: looksComposerLock },
  // Before package.json: a packages.lock.json has per-framework "dependencies" objects.
  'nuget-lock': { parse: parseNugetLock, looks: looksNugetLock },
  // Before package.json: both are JSON objects, and only composer.json names vendor/name requirements.
  'composer-json': { parse: parseComposerJson, looks: looksComposerJson },
  // Before package.json: a package-lock.json has its name and version, and bun.lock its workspaces' dependencies.
  'package-lock': { parse: parsePackageLock, looks: looksPackageLock },
  'bun-lock': { parse: parseBunLock, looks: looksBunLock },
  'package-json': { parse: parsePackageJson, looks: looksPackageJson },
  // Before workflow: both lockfiles may be YAML; each has a marker at its top no workflow has.
  'pnpm-lock': { parse: parsePnpmLock, looks: looksPnpmLock },
  'yarn-lock': { parse: parseYarnLock, looks: looksYarnLock },
  workflow: { parse: parseWorkflow, looks: looksWorkflow },
  dockerfile: { parse: parseDockerfile, looks: looksDockerfile },
  // Before requirements: `module x` would not pass for a requirement, but a go.mod's require lines might.
  'go-mod': { parse: parseGoMod, looks: looksGoMod },
  'go-sum': { parse: parseGoSum, looks: looksGoSum },
  'gradle-lockfile': { parse: parseGradleLockfile, looks: looksGradleLockfile },
  pom: { parse: parsePom, looks: looksPom },
  'nuget-project': { parse: parseNugetProject, looks: looksNugetProject },
  // The TOML lockfiles before Cargo.toml; each looks for its own marks (a Cargo.lock's string
  // `source`, a uv.lock's inline-table one, a poetry.lock's lock-version).
  'cargo-lock': { parse: parseCargoLock, looks: looksCargoLock },
  'uv-lock': { parse: parseUvLock, looks: looksUvLock },
  'poetry-lock': { parse: (text) => parsePoetryLock(text), looks: looksPoetryLock },
  'cargo-toml': { parse: parseCargoToml, looks: looksCargoToml },
  'gemfile-lock': { parse: parseGemfileLock, looks: looksGemfileLock },
  gemfile: { parse: parseGemfile, looks: looksGemfile },
  requirements: { parse: parseRequirements, looks: looksRequirements },
};

/** Every lockfile read, by its usual name, for the sentences that list them. */
export const LOCKFILE_NAMES = manifestFileNames(true);

const ACCEPTED_MANIFESTS = `a manifest (${manifestFileNames(false)}) or a lockfile (${LOCKFILE_NAMES}) (name it with "filename" or ?format=${MANIFEST_FORMATS.join('|')}), or {"components":[{"name","kind"}]}`;

/** The format a file name implies, when it implies one. */
export function formatOfFilename(filename: string): ManifestFormat | null {
  const base = filename.split(/[\\/]/).pop()!.toLowerCase();
  if (base === 'package.json') return 'package-json';
  if (base === 'package-lock.json' || base === 'npm-shrinkwrap.json') return 'package-lock';
  if (base === 'yarn.lock') return 'yarn-lock';
  if (base === 'pnpm-lock.yaml') return 'pnpm-lock';
  if (base === 'bun.lock') return 'bun-lock';
  if (base === 'go.mod') return 'go-mod';
  if (base === 'go.sum') return 'go-sum';
  if (base === 'composer.lock') return 'composer-lock';
  if (base === 'packages.lock.json') return 'nuget-lock';
  // gradle.lockfile, settings-gradle.lockfile, buildscript-gradle.lockfile; Gradle 4.8–5's gradle/dependency-locks/<configuration>.lockfile.
  if (
    base.endsWith('gradle.lockfile') ||
    (base.endsWith('.lockfile') && /(?:^|[\\/])dependency-locks[\\/][^\\/]+$/i.test(filename))
  )
    return 'gradle-lockfile';
  if (base === 'pom.xml' || base.endsWith('.pom')) return 'pom';
  if (base === 'composer.json') return 'composer-json';
  if (base === 'cargo.toml') return 'cargo-toml';
  // Lower-cased: cargo.lock is not cargo.toml, nor gemfile.lock a gemfile (Appraisal's gemfiles/*.gemfile.lock too).
  if (base === 'cargo.lock') return 'cargo-lock';
  if (base === 'poetry.lock') return 'poetry-lock';
  if (base === 'uv.lock') return 'uv-lock';
  if (base === 'pipfile.lock') return 'pipfile-lock';
  if (base === 'gemfile.lock' || base.endsWith('.gemfile.lock')) return 'gemfile-lock';
  if (base === 'gemfile' || base.endsWith('.gemfile')) return 'gemfile';
  if (base === 'packages.config' || /\.(?:cs|fs|vb)proj$/.test(base) || base === 'directory.packages.props')
    return 'nuget-project';
  if (/(?:^|\.)(?:dockerfile|containerfile)$/.test(base) || /^(?:dockerfile|containerfile)(?:\.|$)/.test(base))
    return 'dockerfile';
  if (/\.ya?ml$/.test(base)) return 'workflow';
  if (base.endsWith('.txt') || (base.endsWith('.in') && base.slice(0, -3).includes('requirements')))
    return 'requirements';
  return null;
}

/** Parses a pasted manifest: the format named (format, then filename), else the one its content shows. */
export function parseManifest(
  text: string,
  named: { format?: string | undefined; filename?: string | undefined },
  options: ParseOptions = {},
): ParseResult {
  if (named.format !== undefined) {
    if (!(MANIFEST_FORMATS as readonly string[]).includes(named.format)) {
      throw unsupported(
        ['query', 'format'],
        `format must be one of ${MANIFEST_FORMATS.join(', ')}; got "${named.format.slice(0, 40)}"`,
      );
    }
    return MANIFESTS[named.format as ManifestFormat].parse(text, options);
  }
  // Nothing to place: said as such rather than "could not tell what kind of file this is". A named
  // format or file name reads an empty file as one (an empty requirements.txt names nothing).
  if (named.filename === undefined && text.trim() === '')
    throw unsupported(['body'], `The body is empty. Send ${ACCEPTED_MANIFESTS}.`);
  // The binary lockfile: nothing in it can be read as text, so say which file to send instead.
  if (/(?:^|[\\/])bun\.lockb$/i.test(named.filename ?? '') || text.startsWith('#!/usr/bin/env bun'))
    throw unsupported(['body'], BUN_LOCKB_SENTENCE);
  const byName = named.filename ? formatOfFilename(named.filename) : null;
  if (byName) return MANIFESTS[byName].parse(text, options);
  for (const format of Object.values(MANIFESTS)) if (format.looks(text)) return format.parse(text, options);
  throw unsupported(['body'], `Tended could not tell what kind of file this is. Send ${ACCEPTED_MANIFESTS}.`);
}

const SBOM_FORMATS_READ =
  'CycloneDX 1.2–1.7 (JSON or XML) or SPDX 2.2/2.3 (JSON, YAML or tag-value) or SPDX 3.0 JSON-LD';

/** Parses an SBOM: CycloneDX (JSON, XML) or SPDX (2.x JSON, YAML, tag-value; 3.0 JSON-LD), by content type or content. */
export function parseSbom(text: string, contentType: string): ParseResult {
  if (text.trim() === '') throw unsupported(['body'], `The body is empty. Send the SBOM itself: ${SBOM_FORMATS_READ}.`);
  if (/cyclonedx/.test(contentType)) return parseCycloneDx(text);
  if (/spdx/.test(contentType)) return parseSpdx(text);
  if (looksCycloneDx(text)) return parseCycloneDx(text);
  if (looksSpdx(text)) return parseSpdx(text);
  throw unsupported(['body'], `This is not an SBOM Tended reads. Send ${SBOM_FORMATS_READ}.`);
}

function unsupported(loc: string[], msg: string): ValidationError {
  return new ValidationError([{ loc, msg, type: 'value_error.format' }]);
}
