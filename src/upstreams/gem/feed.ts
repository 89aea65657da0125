/**
 * rubygems.org's `/versions`, parsed (research §1.6; rubygems/compact_index conformance fixtures
 * @3e889b282c45): `created_at: …`, `---`, then lines `name v1,v2,… md5`; a version written `-v`
 * is a yank. The file only grows during a month and is rebuilt at its start, so a follower keeps
 * its byte offset, the header's created_at and the bytes just before the offset: a Range read
 * from a little before the offset must begin with those bytes, or the file is not the one the
 * offset was taken in.
 */
import { parsedBy } from '../following/feed-client.js';
export type VersionsLine = { name: string; versions: string[]; yanked: string[]; md5: string };
export type GemPosition = { created_at: string; offset: number; tail: string };

/** Bytes re-read before the offset to check the file is still the one the offset belongs to. */
export const TAIL_BYTES = 64;

export function parseLines(text: string): VersionsLine[] | string {
  const out: VersionsLine[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const parts = line.split(' ');
    if (parts.length !== 3) return `a /versions line that is not "name versions md5": ${line.slice(0, 80)}`;
    const [name, list, md5] = parts as [string, string, string];
    const all = list.split(',');
    out.push({
      name,
      versions: all.filter((v) => !v.startsWith('-')),
      yanked: all.filter((v) => v.startsWith('-')).map((v) => v.slice(1)),
      md5,
    });
  }
  return out;
}

/** The position after `bytes`, read from byte `start` of the file: what the next Range read resumes from. */
export function positionAfter(createdAt: string, bytes: Buffer, start = 0): GemPosition {
  return {
    created_at: createdAt,
    offset: start + bytes.length,
    tail: bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)).toString('base64'),
  };
}

/** A whole file: its lines after `---`, and the position at its end. */
export function parseVersionsFile(text: unknown): { lines: VersionsLine[]; end: GemPosition } | string {
  if (typeof text !== 'string') return 'not a /versions file';
  const m = /^created_at: (\S+)\n---\n/.exec(text);
  if (!m) return 'a /versions file without its created_at header';
  const lines = parseLines(text.slice(m[0].length));
  return typeof lines === 'string' ? lines : { lines, end: positionAfter(m[1]!, Buffer.from(text)) };
}

/** The feed's answers as the HTTP client's facts, reachable by the thread that reads big bodies. */
export const VERSIONS_FILE_FACTS = parsedBy('gem-versions/1', parseVersionsFile, import.meta.url);
/** The whole file as it is, for a server that ignores Range (the follower cuts it itself). */
export const WHOLE_VERSIONS_FACTS = parsedBy(
  'gem-versions-whole/1',
  (t) => (typeof t === 'string' ? t : 'not text'),
  import.meta.url,
);
