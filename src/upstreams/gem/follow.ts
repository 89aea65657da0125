/**
 * Following RubyGems (research §1.6): `/versions` read with `Range: bytes=<offset − 64>-`, the
 * exact delta since the last read (rubygems.org designed it for this). The first 64 bytes must be
 * the ones the position remembers; a 416 (the file is now shorter) or other bytes there mean the
 * monthly rebuild happened: a fault, and the file is listed again whole. Lines carry no time: a
 * hint is dated the day it was read. A line of only yanks is hinted as a removal (the read decides).
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { unreachableOf } from '../following/feed-client.js';
import type { ChangeHint } from '../following/follower.js';
import { componentOf, type RegistryFeed, type FollowStep } from '../following/registry-follower.js';
import { parseLines, positionAfter, TAIL_BYTES, type GemPosition, WHOLE_VERSIONS_FACTS } from './feed.js';
import { createGemListing } from './list.js';

const rebuilt = (from: GemPosition, detail: string): FollowStep<GemPosition> => ({
  hints: [],
  next: from,
  caughtUp: false,
  fault: { kind: 'rebuilt', detail: `/versions was rebuilt since ${from.created_at}: ${detail}` },
});

export function createGemFeed(client: HttpClient, base: string, now: () => Date): RegistryFeed<string, GemPosition> {
  const list = createGemListing(client, base);
  return {
    registry: 'gem',
    // The whole file says where the next read starts: the listing gives the position.
    head: () => Promise.resolve(null),
    list: (at) => list(at),
    async follow(from) {
      const start = Math.max(0, from.offset - TAIL_BYTES);
      const answer = await client.get(`${base}/versions`, {
        accept: 'text/plain',
        headers: { range: `bytes=${start}-` },
        body: 'text',
        facts: WHOLE_VERSIONS_FACTS,
      });
      // A 200 is the whole file (a server that ignores Range): cut it at the same place.
      let text: string;
      if (answer.kind === 'facts') text = Buffer.from(answer.facts).subarray(start).toString('utf8');
      else if (answer.kind === 'status' && answer.status === 206) text = answer.text;
      else if (answer.kind === 'status' && answer.status === 416)
        return rebuilt(from, 'the file is shorter than the offset');
      else return unreachableOf(answer);
      const bytes = Buffer.from(text);
      if (!bytes.subarray(0, from.offset - start).equals(Buffer.from(from.tail, 'base64')))
        return rebuilt(from, 'the bytes before the offset differ');
      // Only whole lines: a line still being appended is read next time.
      const end = bytes.lastIndexOf(0x0a) + 1;
      const fresh = bytes.subarray(from.offset - start, Math.max(from.offset - start, end));
      const lines = parseLines(fresh.toString('utf8'));
      if (typeof lines === 'string') return { unreachable: `${base}/versions: ${lines}` };
      const newest = new Map<string, ChangeHint>();
      for (const line of lines) {
        const component = componentOf('gem', line.name);
        if (component)
          newest.set(component.id, {
            component,
            changed_on: utcDateOf(now()),
            marker: line.md5,
            removal: line.versions.length === 0 && line.yanked.length > 0,
          });
      }
      const next = positionAfter(from.created_at, bytes.subarray(0, Math.max(from.offset - start, end)), start);
      return { hints: [...newest.values()], next, caughtUp: true };
    },
  };
}
