/**
 * Small text steps that a regular expression would make super-linear on hostile input: `/\/+$/`
 * retries from every position of a long run of slashes that is not at the end, so a long URL
 * costs the square of its length. These walk the text once.
 */

/** `text` without the run of `char` (one UTF-16 unit) at its end. */
export function trimTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

const ELLIPSIS = '…';

/** A break between tokens: the words of a sentence, the entries of a list written "a, b, c". */
function isBreak(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

/** The end of `text.slice(0, at)` moved back off a lone high surrogate, so a cut never splits a character. */
function wholeCharacters(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return at > 0 && code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/** The longest run of whole tokens at the start of `text` within `room` characters, without trailing breaks. */
function headTokens(text: string, room: number): string {
  if (room <= 0) return '';
  // The text up to a break at or before `room` ends with a whole token; so does the whole text.
  let at = Math.min(room, text.length);
  if (at < text.length) while (at > 0 && !isBreak(text.charCodeAt(at))) at -= 1;
  while (at > 0 && isBreak(text.charCodeAt(at - 1))) at -= 1;
  return text.slice(0, at);
}

/** The longest run of whole tokens at the end of `text` within `room` characters, without leading breaks. */
function tailTokens(text: string, room: number): string {
  if (room <= 0) return '';
  let at = Math.max(text.length - room, 0);
  if (at > 0) while (at < text.length && !isBreak(text.charCodeAt(at - 1))) at += 1;
  while (at < text.length && isBreak(text.charCodeAt(at))) at += 1;
  return text.slice(at);
}

/**
 * `text` within `max` characters (UTF-16 units, the ellipsis counted), whole when it fits; else cut
 * between tokens (words, list entries), never inside one: "pkg:oci/a, pkg:oci/b …" rather than
 * "pkg:oci/a, pkg:o…", so what is shown is never a wrong name. `keep: 'start'` keeps the start;
 * `'ends'` keeps both ends (where a location or a path says the most) and elides the middle. Only
 * a text whose first (or last) token alone is longer than the bound is cut inside it, at a whole
 * character, since a single identifier has no other place to cut. The one place Tended cuts text
 * it quotes back or shows, so input echoed back stays short.
 */
export function excerpt(text: string, max = 80, keep: 'start' | 'ends' = 'start'): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  if (keep === 'ends') {
    // " … " between the two ends.
    const room = max - 3;
    const head = headTokens(text, Math.ceil(room / 2));
    const tail = tailTokens(text, room - head.length);
    if (head !== '' && tail !== '') return `${head} ${ELLIPSIS} ${tail}`;
    const half = (max - 1) / 2;
    const start = wholeCharacters(text, Math.ceil(half));
    let end = text.length - Math.floor(half);
    if (end < text.length && text.charCodeAt(end) >= 0xdc00 && text.charCodeAt(end) <= 0xdfff) end += 1;
    return `${text.slice(0, start)}${ELLIPSIS}${text.slice(end)}`;
  }
  const head = headTokens(text, max - 2);
  if (head !== '') return `${head} ${ELLIPSIS}`;
  return `${text.slice(0, wholeCharacters(text, max - 1))}${ELLIPSIS}`;
}
