/**
 * Which end-of-life release cycles an image tag runs on (research §4.3): `node:18-alpine3.19`
 * is nodejs 18 on alpine-linux 3.19; `python:3.8-slim-bookworm` is python 3.8 on debian 12.
 * Pure: the docker reader fetches the products and applies findCycle.
 */
import type { ReleaseFacts } from '../endoflife/facts.js';

/** Official images (library/…) → endoflife.date product; only products the listing has. */
export const IMAGE_PRODUCTS: Readonly<Record<string, string>> = {
  node: 'nodejs',
  python: 'python',
  debian: 'debian',
  ubuntu: 'ubuntu',
  alpine: 'alpine-linux',
  nginx: 'nginx',
  postgres: 'postgresql',
  golang: 'go',
  'eclipse-temurin': 'eclipse-temurin',
  amazoncorretto: 'amazon-corretto',
  ruby: 'ruby',
  php: 'php',
  redis: 'redis',
  mongo: 'mongodb',
  mysql: 'mysql',
  mariadb: 'mariadb',
  rabbitmq: 'rabbitmq',
  haproxy: 'haproxy',
  httpd: 'apache-http-server',
  tomcat: 'tomcat',
  almalinux: 'almalinux',
  amazonlinux: 'amazon-linux',
};

/** Node LTS names are tags (`node:hydrogen`) but not endoflife codenames, so they are kept here. */
export const NODE_LTS_CODENAMES: Readonly<Record<string, string>> = {
  argon: '4',
  boron: '6',
  carbon: '8',
  dubnium: '10',
  erbium: '12',
  fermium: '14',
  gallium: '16',
  hydrogen: '18',
  iron: '20',
  jod: '22',
  krypton: '24',
};

const DEBIAN_CODENAMES = new Set(
  'buzz rex bo hamm slink potato woody sarge etch lenny squeeze wheezy jessie stretch buster bullseye bookworm trixie forky duke'.split(
    ' ',
  ),
);
/** Ubuntu codenames' first word, which is what tags use (`jammy`, `noble`). */
const UBUNTU_CODENAMES = new Set(
  (
    'warty hoary breezy dapper edgy feisty gutsy hardy intrepid jaunty karmic lucid maverick natty oneiric precise quantal ' +
    'raring saucy trusty utopic vivid wily xenial yakkety zesty artful bionic cosmic disco eoan focal groovy hirsute impish ' +
    'jammy kinetic lunar mantic noble oracular plucky questing resolute'
  ).split(' '),
);

export interface CycleLookup {
  product: string;
  /** A version to match exactly or by its longest dotted prefix (`3.8.18` → `3.8`). */
  version?: string;
  /** A codename to match against the release's codename (its first word, case-insensitively). */
  codename?: string;
  /** Which part of the tag it came from, for the evidence. */
  from: string;
}

export interface EolPlan {
  lookups: CycleLookup[];
  /** Parts of the tag that name no cycle we can look up, each as a sentence for the evidence. */
  unchecked: string[];
}

function codenameProduct(token: string): 'debian' | 'ubuntu' | null {
  if (DEBIAN_CODENAMES.has(token)) return 'debian';
  if (UBUNTU_CODENAMES.has(token)) return 'ubuntu';
  return null;
}

/** The lookups for an image path (`library/node`) and tag (`18-alpine3.19`). */
export function planEolChecks(path: string, tag: string): EolPlan {
  const plan: EolPlan = { lookups: [], unchecked: [] };
  if (!path.startsWith('library/') || path.split('/').length !== 2) {
    plan.unchecked.push(
      `${path} is not an official image, and only official images are mapped to end-of-life products`,
    );
    return plan;
  }
  const image = path.slice('library/'.length);
  const product = IMAGE_PRODUCTS[image] ?? null;
  const [first = '', ...rest] = tag.toLowerCase().split('-');
  const variants = [...rest];
  const version = /^v?(\d+(?:\.\d+)*)/.exec(first)?.[1];

  if (product === null) {
    plan.unchecked.push(`no end-of-life product is known for the image ${image}`);
  } else if (version !== undefined) {
    plan.lookups.push({ product, version, from: `tag version ${version}` });
  } else if (image === 'node' && NODE_LTS_CODENAMES[first]) {
    plan.lookups.push({ product, version: NODE_LTS_CODENAMES[first], from: `Node.js LTS name ${first}` });
  } else if (codenameProduct(first) === product) {
    plan.lookups.push({ product, codename: first, from: `codename ${first}` });
  } else {
    plan.unchecked.push(
      `the tag "${tag}" names no release cycle of ${product} (a moving tag such as latest, or a variant only)`,
    );
    // `python:bookworm`, `node:alpine`: the first token may itself be a base-image variant.
    variants.unshift(first);
  }

  for (const v of variants) {
    const alpine = /^alpine(\d+\.\d+)$/.exec(v);
    const base = codenameProduct(v);
    if (alpine?.[1]) plan.lookups.push({ product: 'alpine-linux', version: alpine[1], from: `variant ${v}` });
    else if (v === 'alpine')
      plan.unchecked.push('the tag names Alpine without its version, so the Alpine cycle is not checked');
    else if (base && !(base === product && plan.lookups.some((l) => l.codename === v)))
      plan.lookups.push({ product: base, codename: v, from: `variant ${v}` });
  }
  return plan;
}

/** The release a lookup names: exact name first, then the longest dotted prefix; null when none. */
export function findCycle(releases: readonly ReleaseFacts[], lookup: CycleLookup): ReleaseFacts | null {
  if (lookup.version !== undefined) {
    const parts = lookup.version.split('.');
    for (let n = parts.length; n >= 1; n--) {
      const name = parts.slice(0, n).join('.');
      const hit = releases.find((r) => r.name === name);
      if (hit) return hit;
    }
    return null;
  }
  if (lookup.codename !== undefined) {
    const want = lookup.codename.toLowerCase();
    return releases.find((r) => (r.codename ?? '').trim().split(/\s+/)[0]?.toLowerCase() === want) ?? null;
  }
  return null;
}
