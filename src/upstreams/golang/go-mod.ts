/**
 * The two facts a go.mod file gives about its module's upkeep (go.dev/ref/mod "Deprecation",
 * "retract directive"): a `Deprecated:` paragraph in the comment block right above the `module`
 * directive (or trailing it on the same line), and the versions it retracts. Read line by line,
 * so the cost is linear in the file.
 */

export interface GoModFacts {
  deprecated: string | null;
  retracted: string[];
}

const MAX_RETRACTED = 50;
const MODULE_LINE = /^module[\s(]/;

function commentText(line: string): string | null {
  const t = line.trim();
  return t.startsWith('//') ? t.slice(2).trim() : null;
}

/** A paragraph of the comment that begins `Deprecated:` (case-sensitive, as the go command reads it). */
function deprecation(comment: string[]): string | null {
  const paragraphs: string[][] = [[]];
  for (const line of comment) {
    if (line === '') paragraphs.push([]);
    else paragraphs.at(-1)!.push(line);
  }
  for (const p of paragraphs) {
    const text = p.join(' ');
    if (text.startsWith('Deprecated:')) return text.slice('Deprecated:'.length).trim().slice(0, 500) || 'deprecated';
  }
  return null;
}

function retraction(spec: string): string | null {
  const comment = spec.indexOf('//');
  const s = (comment < 0 ? spec : spec.slice(0, comment)).trim();
  return s === '' ? null : s.slice(0, 100);
}

export function readGoMod(text: string): GoModFacts {
  const lines = text.split('\n');
  let deprecated: string | null = null;
  const retracted: string[] = [];
  let inRetractBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (inRetractBlock) {
      if (line.startsWith(')')) inRetractBlock = false;
      else {
        const r = retraction(line);
        if (r && !r.startsWith('//') && retracted.length < MAX_RETRACTED) retracted.push(r);
      }
      continue;
    }
    if (MODULE_LINE.test(line) && deprecated === null) {
      const comment: string[] = [];
      // The block right above the directive, read upwards until a line that is not a comment.
      for (let j = i - 1; j >= 0; j--) {
        const c = commentText(lines[j]!);
        if (c === null) break;
        comment.unshift(c);
      }
      const trailing = line.indexOf('//');
      if (trailing >= 0) comment.push(line.slice(trailing + 2).trim());
      deprecated = deprecation(comment);
    } else if (/^retract\s*\($/.test(line)) inRetractBlock = true;
    else if (/^retract\s/.test(line)) {
      const r = retraction(line.slice('retract'.length));
      if (r && retracted.length < MAX_RETRACTED) retracted.push(r);
    }
  }
  return { deprecated, retracted };
}
