/**
 * The contract suite's tags (contract-tests/vitest.config.ts defines them; a test keeps the two lists
 * equal) and the check of a `--tags` expression against them, before anything runs: vitest would only
 * find an unknown tag after the run began (a stack trace, exit 1, no report).
 */
export const CONTRACT_TAGS = ['read', 'write', 'money', 'sandbox'] as const;

type Token = { type: 'tag'; value: string } | { type: '(' | ')' | '!' | '&&' | '||' | 'end' };

/** vitest's tags expression grammar: tags (`*` a wildcard), `!`/`not`, `&&`/`and`, `||`/`or`, parentheses. */
function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const rest = expr.slice(i);
    const ch = expr.charAt(i);
    if (ch === ' ' || ch === '\t') i++;
    else if (ch === '(' || ch === ')' || ch === '!') {
      tokens.push({ type: ch });
      i++;
    } else if (rest.startsWith('&&') || rest.startsWith('||')) {
      tokens.push({ type: rest.startsWith('&&') ? '&&' : '||' });
      i += 2;
    } else if (/^and(?:\s|\)|$)/i.test(rest)) {
      tokens.push({ type: '&&' });
      i += 3;
    } else if (/^or(?:\s|\)|$)/i.test(rest)) {
      tokens.push({ type: '||' });
      i += 2;
    } else if (/^not\s/i.test(rest)) {
      tokens.push({ type: '!' });
      i += 3;
    } else {
      const tag = /^[^\s()!&|]+/.exec(rest)?.[0] ?? ch;
      tokens.push({ type: 'tag', value: tag });
      i += tag.length;
    }
  }
  tokens.push({ type: 'end' });
  return tokens;
}

const shown = (t: Token) =>
  t.type === 'tag' ? `"${t.value}"` : t.type === 'end' ? 'the end' : `"${t.type}"`;

/**
 * Why `expr` is not a tags expression of the suite (one sentence naming the unknown tag and the known
 * ones, or the syntax error), or undefined when it is one.
 */
export function tagsExpressionProblem(
  expr: string,
  known: readonly string[] = CONTRACT_TAGS,
): string | undefined {
  const tokens = tokenize(expr);
  let pos = 0;
  const peek = () => tokens[pos] ?? { type: 'end' as const };
  const knownList = known.join(', ');
  const fail = (why: string): never => {
    throw new Error(why);
  };
  const primary = (): void => {
    const t = peek();
    pos++;
    if (t.type === '(') {
      or();
      if (peek().type !== ')') fail(`expected ")" but found ${shown(peek())}`);
      pos++;
    } else if (t.type === 'tag') {
      const re = new RegExp(
        `^${t.value.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`,
      );
      if (!known.some((k) => re.test(k)))
        fail(`unknown tag "${t.value}"; the suite's tags are ${knownList}`);
    } else fail(`expected a tag but found ${shown(t)}`);
  };
  const unary = (): void => {
    while (peek().type === '!') pos++;
    primary();
  };
  const and = (): void => {
    unary();
    while (peek().type === '&&') (pos++, unary());
  };
  const or = (): void => {
    and();
    while (peek().type === '||') (pos++, and());
  };
  try {
    if (peek().type === 'end') fail(`an empty expression; the suite's tags are ${knownList}`);
    or();
    if (peek().type !== 'end') fail(`unexpected ${shown(peek())}`);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
