/**
 * The distribution release an OS package purl (`deb`, `apk`, `rpm`) runs on, named as the
 * end-of-life listing names it (research upstreams-more §7): `debian/12`, `ubuntu/22.04`,
 * `alpine-linux/3.19`. A distribution patches its packages within a frozen release, so a
 * package's upkeep is its release's support. Producers write the `distro` qualifier
 * differently (`debian-11`, `alpine-3.12.12`, a bare `3.14.2`, `amazon-2 (Karoo)`, `bookworm`);
 * nothing is guessed from the package's own version.
 */

/** How many leading numbers of the release name the listing uses (Debian 12, Ubuntu 22.04, RHEL 8). */
type Precision = 'major' | 'two' | 'amazon' | 'photon';

interface Distribution {
  product: string;
  precision: Precision;
  codenames?: Record<string, string>;
}

const DEBIAN_CODENAMES: Record<string, string> = {
  forky: '14',
  trixie: '13',
  bookworm: '12',
  bullseye: '11',
  buster: '10',
  stretch: '9',
  jessie: '8',
  wheezy: '7',
};
const UBUNTU_CODENAMES: Record<string, string> = {
  questing: '25.10',
  plucky: '25.04',
  oracular: '24.10',
  noble: '24.04',
  mantic: '23.10',
  lunar: '23.04',
  kinetic: '22.10',
  jammy: '22.04',
  impish: '21.10',
  hirsute: '21.04',
  groovy: '20.10',
  focal: '20.04',
  bionic: '18.04',
  xenial: '16.04',
  trusty: '14.04',
};

/** purl namespace (Syft's os-release ID, Trivy's family name) → the listing's product. */
const DISTRIBUTIONS: Record<string, Distribution> = {
  debian: { product: 'debian', precision: 'major', codenames: DEBIAN_CODENAMES },
  ubuntu: { product: 'ubuntu', precision: 'two', codenames: UBUNTU_CODENAMES },
  alpine: { product: 'alpine-linux', precision: 'two' },
  redhat: { product: 'rhel', precision: 'major' },
  rhel: { product: 'rhel', precision: 'major' },
  centos: { product: 'centos', precision: 'major' },
  rocky: { product: 'rocky-linux', precision: 'major' },
  alma: { product: 'almalinux', precision: 'major' },
  almalinux: { product: 'almalinux', precision: 'major' },
  oracle: { product: 'oracle-linux', precision: 'major' },
  ol: { product: 'oracle-linux', precision: 'major' },
  amazon: { product: 'amazon-linux', precision: 'amazon' },
  amzn: { product: 'amazon-linux', precision: 'amazon' },
  fedora: { product: 'fedora', precision: 'major' },
  opensuse: { product: 'opensuse', precision: 'two' },
  'opensuse-leap': { product: 'opensuse', precision: 'two' },
  suse: { product: 'sles', precision: 'two' },
  sles: { product: 'sles', precision: 'two' },
  photon: { product: 'photon', precision: 'photon' },
};

/** Distributions the listing has no end-of-life for: rolling, or unlisted. */
const NO_LISTING = new Set([
  'wolfi',
  'chainguard',
  'azurelinux',
  'cbl-mariner',
  'mariner',
  'arch',
  'archlinux',
  'gentoo',
]);

/** The listing products a `distro` component may name. */
export const DISTRO_PRODUCTS = new Set(Object.values(DISTRIBUTIONS).map((d) => d.product));

function release(version: string, precision: Precision): string {
  const parts = version.split('.');
  switch (precision) {
    case 'major':
      return parts[0]!;
    case 'two':
      return parts.slice(0, 2).join('.');
    case 'amazon':
      // Amazon Linux 1 is named by year and month (2018.03); 2 and 2023 by their major.
      return /^\d{4}\.\d{2}$/.test(parts.slice(0, 2).join('.')) && parts[0] !== '2023'
        ? parts.slice(0, 2).join('.')
        : parts[0]!;
    case 'photon':
      return parts.length === 1 ? `${parts[0]}.0` : parts.slice(0, 2).join('.');
  }
}

/**
 * `debian/12` for a purl's namespace and `distro` qualifier, or a sentence saying why no
 * release can be told (the reason an SBOM entry stays unresolved).
 */
export function distroRelease(
  namespace: string | null | undefined,
  distro: string | undefined,
): string | { why: string } {
  const ns = (namespace ?? '').toLowerCase();
  if (NO_LISTING.has(ns)) return { why: `the end-of-life listing has no release dates for ${ns.slice(0, 30)}` };
  const d = DISTRIBUTIONS[ns];
  if (!d) return { why: `Tended knows no end-of-life listing for the distribution "${ns.slice(0, 30)}"` };
  if (distro === undefined || distro.trim() === '')
    return {
      why: 'it names no distribution release (no distro qualifier), and Tended does not guess one from the package version',
    };
  // `amazon-2 (Karoo)`, `debian-12.9`, `opensuse-leap-15.6`, `3.14.2`, `bookworm`.
  // What a parenthesis holds is a codename beside the number (`2 (Karoo)`): the number is enough.
  const open = distro.indexOf('(');
  const value = (open < 0 ? distro : distro.slice(0, open)).trim().toLowerCase();
  const number = /\d+(?:\.\d+)*/.exec(value)?.[0];
  if (number !== undefined) return `${d.product}/${release(number, d.precision)}`;
  const word = value.replace(/^[a-z]+-/, '').split(/[\s-]/)[0] ?? '';
  const byCodename = d.codenames?.[word];
  if (byCodename) return `${d.product}/${byCodename}`;
  return {
    why: `its distro qualifier "${distro.slice(0, 40)}" names no release Tended can match (a rolling release, or an unknown codename)`,
  };
}
