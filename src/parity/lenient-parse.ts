/**
 * A value the source elided (`[Object]`, `[Array]`, `{...}` in a Node `util.inspect` dump or a doc):
 * the comparison accepts anything there.
 */
export const ELIDED = Object.freeze({ __elided: true });

export type LenientResult =
  { ok: true; value: unknown; truncated: boolean } | { ok: false; error: string };

class Stop extends Error {}

/**
 * Parse a body as a source printed it: JSON, a JS object literal (unquoted keys, single quotes,
 * trailing commas), Node `util.inspect` output (also behind a `// ` comment prefix), a fragment
 * starting with `"key":`, or any of these cut short (the open objects and arrays are closed, the
 * unfinished member dropped, and `truncated` is set).
 *
 * @example
 * parseLenient("{ id: 'a', n: [Object], list: [ 1, 2") // { ok: true, value: { id: 'a', n: ELIDED, list: [1, 2] }, truncated: true }
 */
export function parseLenient(source: string): LenientResult {
  try {
    return { ok: true, value: JSON.parse(source), truncated: false };
  } catch {
    // not strict JSON: read it leniently below
  }
  let text = source;
  if (/^\s*\/\//.test(text)) text = text.replace(/^[ \t]*\/\/ ?/gm, '');
  text = text.trim();
  if (/^"[^"]+"\s*:/.test(text)) text = `{${text}`;
  if (!/^[[{]/.test(text)) return { ok: false, error: 'not an object or array' };
  let i = 0;
  let truncated = false;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const eof = () => {
    ws();
    if (i >= text.length) {
      truncated = true;
      throw new Stop();
    }
  };
  const str = (): string => {
    const q = text[i++]!;
    let out = '';
    while (i < text.length && text[i] !== q) {
      if (text[i] === '\\') {
        const n = text[i + 1];
        out += n === 'n' ? '\n' : n === 't' ? '\t' : (n ?? '');
        i += 2;
      } else out += text[i++];
    }
    if (i >= text.length) {
      truncated = true;
      throw new Stop();
    }
    i++;
    return out;
  };
  const word = (): string => {
    const m = /^[\w$.+-]+/.exec(text.slice(i));
    if (!m) throw new Error(`unexpected "${text[i]}" at ${i}`);
    i += m[0].length;
    return m[0];
  };
  // Containers are attached to their parent before they are filled: on a cut, what was read survives.
  const value = (set: (v: unknown) => void): void => {
    eof();
    const c = text[i]!;
    if (c === '{') {
      if (text.startsWith('{...}', i)) return ((i += 5), set(ELIDED));
      const o: Record<string, unknown> = {};
      set(o);
      return object(o);
    }
    if (c === '[') {
      const m = /^\[(Object|Array|Function[^\]]*)\]/.exec(text.slice(i));
      if (m) return ((i += m[0].length), set(ELIDED));
      const a: unknown[] = [];
      set(a);
      return array(a);
    }
    if (c === '"' || c === "'") return set(str());
    if (text.startsWith('...', i)) return ((i += 3), set(ELIDED));
    const w = word();
    if (w === 'true' || w === 'false') return set(w === 'true');
    if (w === 'null' || w === 'None') return set(null);
    if (w === 'undefined') return set(ELIDED);
    const n = Number(w);
    if (Number.isNaN(n)) throw new Error(`unexpected "${w}"`);
    set(n);
  };
  const object = (out: Record<string, unknown>): void => {
    i++;
    for (;;) {
      eof();
      if (text[i] === ',') i++;
      eof();
      if (text[i] === '}') return void i++;
      if (text.startsWith('...', i)) {
        i += 3;
        continue;
      }
      const key = text[i] === '"' || text[i] === "'" ? str() : word();
      out[key] = ELIDED; // known key, value not (yet) read
      eof();
      if (text[i] !== ':') throw new Error(`expected ":" after ${key}`);
      i++;
      value((v) => (out[key] = v));
    }
  };
  const array = (out: unknown[]): void => {
    i++;
    for (;;) {
      eof();
      if (text[i] === ',') i++;
      eof();
      if (text[i] === ']') return void i++;
      const more = /^\.\.\. \d+ more items?/.exec(text.slice(i));
      if (more) {
        i += more[0].length;
        continue;
      }
      value((v) => out.push(v));
    }
  };
  let root: unknown;
  try {
    value((v) => (root = v));
    ws();
    if (i < text.length)
      return { ok: false, error: `unexpected "${text.slice(i, i + 10)}" after the value` };
  } catch (err) {
    if (!(err instanceof Stop)) return { ok: false, error: (err as Error).message };
  }
  return root === undefined ? { ok: false, error: 'empty' } : { ok: true, value: root, truncated };
}
