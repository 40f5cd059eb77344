/**
 * The README's shell recipes as a test runs them (src/testing/readme-recipes.test.ts), so the README
 * cannot rot: every fenced `sh`/`bash`/`shell` block, in order, in one bash session against a fresh
 * sandbox. A block that cannot run there (installing, several terminals, another service) says so in
 * the README itself, with `<!-- not-run: reason -->` on the line(s) just before it.
 */

export interface Recipe {
  /** 1-based line of the opening fence in the README. */
  line: number;
  lang: string;
  code: string;
  /** Why the block is not run, from its `<!-- not-run: … -->` marker. */
  notRun?: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)[^\n]*$/;
const NOT_RUN = /^<!--\s*not-run:\s*(.+?)\s*-->\s*$/;
export const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);

/** Every shell block of a Markdown text, with its not-run marker when it has one. */
export function extractRecipes(markdown: string): Recipe[] {
  const lines = markdown.split('\n');
  const recipes: Recipe[] = [];
  const line = (n: number) => lines[n] ?? '';
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(line(i));
    if (!open) continue;
    const [, indent = '', fence = '', lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = line(j);
      if (l.trim().startsWith(fence) && l.trim().replace(/[`~]/g, '') === '') break;
      body.push(indent && l.startsWith(indent) ? l.slice(indent.length) : l);
    }
    if (SHELL_LANGS.has(lang.toLowerCase())) {
      // The marker is the nearest non-blank line above the fence.
      let k = i - 1;
      while (k >= 0 && line(k).trim() === '') k--;
      const marker = k >= 0 ? NOT_RUN.exec(line(k).trim()) : null;
      recipes.push({
        line: i + 1,
        lang: lang.toLowerCase(),
        code: body.join('\n'),
        notRun: marker?.[1],
      });
    }
    i = j;
  }
  return recipes;
}

/** The README speaks of the default port; the test's sandbox listens elsewhere. */
export function rewritePort(code: string, port: number): string {
  return code.replace(/\b(127\.0\.0\.1|localhost):7070\b/g, `127.0.0.1:${port}`);
}

/**
 * One bash script for all runnable recipes, in README order, sharing variables as a reader pasting
 * them into one terminal would. `set -euo pipefail` stops at the first failing command, and `curl`
 * fails on an HTTP error status (--fail-with-body), so a recipe that answers 4xx/5xx fails too.
 * Progress goes to fd 3: `begin N` / `end N` around recipe N.
 */
export function recipeScript(recipes: Recipe[], port: number): string {
  const parts = [
    'set -euo pipefail',
    // A recipe's curl must get a 2xx, within a bound; it still prints the body either way.
    'curl() { command curl --fail-with-body --max-time 30 "$@"; }',
    // Name the command that failed (the test shows the end of the output).
    'trap \'echo "README recipe failed at: $BASH_COMMAND" >&2\' ERR',
  ];
  recipes.forEach((r, n) => {
    if (r.notRun) return;
    parts.push(`echo "begin ${n}" >&3`, rewritePort(r.code, port), '', `echo "end ${n}" >&3`);
  });
  return parts.join('\n') + '\n';
}
