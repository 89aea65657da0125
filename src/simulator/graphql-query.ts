/**
 * Just enough of GraphQL's query language for the simulated GitHub to answer a query as GitHub
 * would: one operation (its variable definitions skipped), aliased fields with arguments (string,
 * number, boolean and enum literals, `$variables`), nested selections, fragment spreads and inline
 * fragments with a type condition. What it cannot parse is a parse error, as GitHub answers one:
 * the reader must never get data from a query GitHub would refuse.
 */

export type ArgValue = string | number | boolean | null;

export interface FieldSelection {
  kind: 'field';
  alias: string | null;
  name: string;
  args: Record<string, ArgValue>;
  selections: Selection[] | null;
  line: number;
  column: number;
}

export type Selection =
  FieldSelection | { kind: 'spread'; name: string } | { kind: 'inline'; on: string | null; selections: Selection[] };

export interface ParsedQuery {
  selections: Selection[];
  fragments: Map<string, { on: string; selections: Selection[] }>;
}

export class GraphqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'GraphqlSyntaxError';
  }
}

interface Token {
  kind: 'name' | 'punct' | 'string' | 'number' | 'variable' | 'spread';
  text: string;
  line: number;
  column: number;
}

const PUNCT = new Set(['{', '}', '(', ')', ':', '!', '[', ']', '=', '@', '|', '&']);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const column = i - lineStart + 1;
    if (c === '\n') {
      line++;
      lineStart = i + 1;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === ',' || c === '\uFEFF') {
      i++;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (source.startsWith('...', i)) {
      tokens.push({ kind: 'spread', text: '...', line, column });
      i += 3;
    } else if (PUNCT.has(c)) {
      tokens.push({ kind: 'punct', text: c, line, column });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '\n') throw new GraphqlSyntaxError('Unterminated string', line, column);
        if (source[j] === '\\') {
          const e = source[j + 1];
          text += e === 'n' ? '\n' : e === 't' ? '\t' : (e ?? '');
          j += 2;
        } else text += source[j++];
      }
      if (j >= source.length) throw new GraphqlSyntaxError('Unterminated string', line, column);
      tokens.push({ kind: 'string', text, line, column });
      i = j + 1;
    } else if (c === '$' || /[a-z_]/i.test(c)) {
      const m = /^\$?[a-z_]\w*/i.exec(source.slice(i, i + 256));
      if (!m) throw new GraphqlSyntaxError(`Parse error on "${c}"`, line, column);
      tokens.push({ kind: c === '$' ? 'variable' : 'name', text: m[0].replace(/^\$/, ''), line, column });
      i += m[0].length;
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?\d+(?:\.\d+)?/.exec(source.slice(i, i + 64));
      if (!m) throw new GraphqlSyntaxError(`Parse error on "${c}"`, line, column);
      tokens.push({ kind: 'number', text: m[0], line, column });
      i += m[0].length;
    } else {
      throw new GraphqlSyntaxError(`Parse error on "${c}"`, line, column);
    }
  }
  return tokens;
}

class Parser {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly variables: Record<string, unknown>,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private next(): Token {
    const t = this.tokens[this.at++];
    if (!t) {
      const last = this.tokens.at(-1);
      throw new GraphqlSyntaxError('Parse error on end of query', last?.line ?? 1, last?.column ?? 1);
    }
    return t;
  }

  private expect(text: string): Token {
    const t = this.next();
    if (t.text !== text || (t.kind !== 'punct' && t.kind !== 'name'))
      throw new GraphqlSyntaxError(`Parse error on "${t.text}", expected "${text}"`, t.line, t.column);
    return t;
  }

  private is(text: string): boolean {
    const t = this.peek();
    return t !== undefined && t.text === text && (t.kind === 'punct' || t.kind === 'name');
  }

  parse(): ParsedQuery {
    let selections: Selection[] | null = null;
    const fragments = new Map<string, { on: string; selections: Selection[] }>();
    while (this.peek()) {
      if (this.is('fragment')) {
        this.next();
        const name = this.next().text;
        this.expect('on');
        const on = this.next().text;
        fragments.set(name, { on, selections: this.selectionSet() });
        continue;
      }
      if (selections) {
        const t = this.next();
        throw new GraphqlSyntaxError('only one operation is answered here', t.line, t.column);
      }
      if (this.is('query')) {
        this.next();
        if (this.peek()?.kind === 'name') this.next();
        // Variable definitions: their types are not checked, their values come from `variables`.
        if (this.is('(')) this.skipBalanced('(', ')');
      } else if (this.is('mutation') || this.is('subscription')) {
        const t = this.next();
        throw new GraphqlSyntaxError(`${t.text} is not simulated`, t.line, t.column);
      }
      selections = this.selectionSet();
    }
    if (!selections) throw new GraphqlSyntaxError('Parse error on end of query', 1, 1);
    return { selections, fragments };
  }

  private skipBalanced(open: string, close: string): void {
    let depth = 0;
    do {
      const t = this.next();
      if (t.text === open && t.kind === 'punct') depth++;
      else if (t.text === close && t.kind === 'punct') depth--;
    } while (depth > 0);
  }

  private selectionSet(): Selection[] {
    this.expect('{');
    const out: Selection[] = [];
    while (!this.is('}')) out.push(this.selection());
    this.expect('}');
    if (out.length === 0) {
      const t = this.tokens[this.at - 1]!;
      throw new GraphqlSyntaxError('Parse error on "}" (RCURLY)', t.line, t.column);
    }
    return out;
  }

  private selection(): Selection {
    const t = this.next();
    if (t.kind === 'spread') {
      if (this.is('on')) {
        this.next();
        const on = this.next().text;
        return { kind: 'inline', on, selections: this.selectionSet() };
      }
      if (this.is('{')) return { kind: 'inline', on: null, selections: this.selectionSet() };
      return { kind: 'spread', name: this.next().text };
    }
    if (t.kind !== 'name') throw new GraphqlSyntaxError(`Parse error on "${t.text}"`, t.line, t.column);
    let alias: string | null = null;
    let name = t.text;
    if (this.is(':')) {
      this.next();
      alias = name;
      const n = this.next();
      if (n.kind !== 'name') throw new GraphqlSyntaxError(`Parse error on "${n.text}"`, n.line, n.column);
      name = n.text;
    }
    const args: Record<string, ArgValue> = {};
    if (this.is('(')) {
      this.next();
      while (!this.is(')')) {
        const key = this.next().text;
        this.expect(':');
        args[key] = this.value();
      }
      this.expect(')');
    }
    const selections = this.is('{') ? this.selectionSet() : null;
    return { kind: 'field', alias, name, args, selections, line: t.line, column: t.column };
  }

  private value(): ArgValue {
    const t = this.next();
    switch (t.kind) {
      case 'string':
        return t.text;
      case 'number':
        return Number(t.text);
      case 'variable': {
        const v = this.variables[t.text];
        if (v === undefined)
          throw new GraphqlSyntaxError(`Variable $${t.text} is used but not provided`, t.line, t.column);
        return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? v : null;
      }
      case 'name':
        return t.text === 'true' ? true : t.text === 'false' ? false : t.text === 'null' ? null : t.text;
      default:
        throw new GraphqlSyntaxError(`Parse error on "${t.text}"`, t.line, t.column);
    }
  }
}

export function parseQuery(source: string, variables: Record<string, unknown>): ParsedQuery {
  return new Parser(tokenize(source), variables).parse();
}
