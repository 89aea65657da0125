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

/** At most `max` characters of `text` for a message, with an ellipsis when cut: input echoed back stays short. */
export function excerpt(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
