/**
 * sitemap.xml for a record of millions of pages (sitemaps.org protocol): the site's own pages, the
 * packages with a page, and every held repository, image and release (kinds with no census, whose
 * held components all have a page; a package held without a page is left out, as its answer is
 * noindex). One urlset while every
 * page fits in one file, else a sitemap index naming /sitemaps/N.xml, each at most 50,000 URLs and
 * 50 MB. Both are made from keyset pages of the store (operations/read-adoption.ts), a bounded
 * number of rows at a time: the index keeps each file's first key, never the URLs, and a file is
 * written from its own range. Memory is one file's text at most, whatever the number of packages.
 */
import type { ComponentRef } from '../domain/component.js';
import type { RecordDeps } from '../operations/deps.js';
import { adoptedAfter, heldPagesAfter, type AdoptedPage } from '../operations/read-adoption.js';
import { packagePath } from './registries.js';

/** The protocol's caps on one file: URLs, and bytes uncompressed. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** The protocol's bound on a URL ("less than 2,048 characters"): a longer one is left out. */
const MAX_LOC_CHARS = 2_047;
/** Rows read from the store per step. */
const READ_STEP = 5_000;

const XMLNS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const URLSET_OPEN = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${XMLNS}">\n`;
const URLSET_CLOSE = `</urlset>\n`;
const ENVELOPE_BYTES = Buffer.byteLength(URLSET_OPEN) + Buffer.byteLength(URLSET_CLOSE);

export const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** One file of the index: the packages after `after` up to and including `last`. */
export interface SitemapPart {
  /** The key the file's packages come after; null for the first file, which also holds the site's own pages. */
  after: ComponentRef | null;
  /** The file's last package; null when it holds none (a site with no package page). */
  last: ComponentRef | null;
  urls: number;
  /** The latest lastmod of its URLs (YYYY-MM-DD), null when none has one. */
  lastmod: string | null;
}

export interface SitemapPlan {
  parts: SitemapPart[];
}

/** A `<url>` line, newline included. */
function urlLine(loc: string, lastmod: string | null): string {
  return `<url><loc>${xmlEscape(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>\n`;
}

/** One page of the sitemap: whose it is and when it last changed (YYYY-MM-DD), null when unknown. */
interface ListedPage {
  component: ComponentRef;
  lastmod: string | null;
}

/** When a package's page last changed: its latest census or its latest reading, whichever is later. */
function lastmodOf(a: AdoptedPage): string {
  return a.observed_date !== null && a.observed_date > a.read_date ? a.observed_date : a.read_date;
}

function locOf(baseUrl: string, p: ListedPage): string | null {
  const loc = `${baseUrl}${packagePath(p.component)}`;
  return loc.length > MAX_LOC_CHARS ? null : loc;
}

/** The packages with a page after `after`, a bounded step at a time. */
async function* adoptedFrom(deps: RecordDeps, minDependents: number, after: ComponentRef | null) {
  let from = after;
  for (;;) {
    const rows = await adoptedAfter(deps, from, minDependents, READ_STEP);
    for (const row of rows) yield { component: row.component, lastmod: lastmodOf(row) };
    if (rows.length < READ_STEP) return;
    from = rows.at(-1)!.component;
  }
}

/** The held repositories, images and releases after `after`, a bounded step at a time. */
async function* heldFrom(deps: RecordDeps, after: ComponentRef | null) {
  let from = after;
  for (;;) {
    const rows = await heldPagesAfter(deps, from, READ_STEP);
    for (const row of rows) yield { component: row.component, lastmod: row.observed_date };
    if (rows.length < READ_STEP) return;
    from = rows.at(-1)!.component;
  }
}

/**
 * Every page after `after`, through `last` when given, in (kind, id) byte order: the two walks
 * (packages by census, the other kinds by reading) merged, since their kinds interleave.
 */
async function* pageRange(
  deps: RecordDeps,
  minDependents: number,
  after: ComponentRef | null,
  last: ComponentRef | null = null,
): AsyncGenerator<ListedPage> {
  const adopted = adoptedFrom(deps, minDependents, after);
  const held = heldFrom(deps, after);
  let a = await adopted.next();
  let h = await held.next();
  while (!a.done || !h.done) {
    const takeAdopted = h.done || (!a.done && !beyond(a.value.component, h.value.component));
    const page = takeAdopted ? (a.value as ListedPage) : (h.value as ListedPage);
    if (last !== null && beyond(page.component, last)) break;
    yield page;
    if (takeAdopted) a = await adopted.next();
    else h = await held.next();
  }
  await Promise.all([adopted.return(undefined), held.return(undefined)]);
}

/** (kind, id) in byte order, as the store orders them. */
function beyond(x: ComponentRef, y: ComponentRef): boolean {
  if (x.kind !== y.kind) return Buffer.compare(Buffer.from(x.kind), Buffer.from(y.kind)) > 0;
  return Buffer.compare(Buffer.from(x.id), Buffer.from(y.id)) > 0;
}

/**
 * Where each file of the sitemap begins and ends: one pass over the packages in key order,
 * cutting a file before it would pass 50,000 URLs or 50 MB. The site's own pages open the first.
 */
export async function planSitemap(
  deps: RecordDeps,
  minDependents: number,
  baseUrl: string,
  staticPaths: readonly string[],
): Promise<SitemapPlan> {
  const parts: SitemapPart[] = [];
  let part: SitemapPart = { after: null, last: null, urls: 0, lastmod: null };
  let bytes = ENVELOPE_BYTES;
  for (const path of staticPaths) {
    part.urls++;
    bytes += Buffer.byteLength(urlLine(`${baseUrl}${path}`, null));
  }
  for await (const p of pageRange(deps, minDependents, null)) {
    const loc = locOf(baseUrl, p);
    if (loc === null) continue;
    const { lastmod } = p;
    const size = Buffer.byteLength(urlLine(loc, lastmod));
    if (part.urls + 1 > SITEMAP_MAX_URLS || bytes + size > SITEMAP_MAX_BYTES) {
      parts.push(part);
      part = { after: part.last, last: null, urls: 0, lastmod: null };
      bytes = ENVELOPE_BYTES;
    }
    part.urls++;
    part.last = p.component;
    bytes += size;
    if (lastmod !== null && (part.lastmod === null || lastmod > part.lastmod)) part.lastmod = lastmod;
  }
  parts.push(part);
  return { parts };
}

/** The sitemap index naming every file of the plan. */
export function sitemapIndexXml(plan: SitemapPlan, baseUrl: string): string {
  const entries = plan.parts.map(
    (p, i) =>
      `<sitemap><loc>${xmlEscape(`${baseUrl}/sitemaps/${i + 1}.xml`)}</loc>${p.lastmod ? `<lastmod>${p.lastmod}</lastmod>` : ''}</sitemap>\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${XMLNS}">\n${entries.join('')}</sitemapindex>\n`;
}

/**
 * One file of the plan, written from its own key range. Packages that gained a page since the
 * plan was made may make the range fuller: the file still stops at the caps, and they are listed
 * once the plan is made again.
 */
export async function sitemapPartXml(
  deps: RecordDeps,
  minDependents: number,
  baseUrl: string,
  staticPaths: readonly string[],
  part: SitemapPart,
): Promise<string> {
  const lines: string[] = [];
  let urls = 0;
  let bytes = ENVELOPE_BYTES;
  if (part.after === null) {
    for (const path of staticPaths) {
      const line = urlLine(`${baseUrl}${path}`, null);
      lines.push(line);
      urls++;
      bytes += Buffer.byteLength(line);
    }
  }
  if (part.last !== null) {
    for await (const p of pageRange(deps, minDependents, part.after, part.last)) {
      const loc = locOf(baseUrl, p);
      if (loc === null) continue;
      const line = urlLine(loc, p.lastmod);
      const size = Buffer.byteLength(line);
      if (urls + 1 > SITEMAP_MAX_URLS || bytes + size > SITEMAP_MAX_BYTES) break;
      lines.push(line);
      urls++;
      bytes += size;
    }
  }
  return `${URLSET_OPEN}${lines.join('')}${URLSET_CLOSE}`;
}
