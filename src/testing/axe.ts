import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's own build from node_modules: injected from disk, never fetched from a CDN. */
export const AXE_SCRIPT_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The WCAG 2.1 level A and AA rules. */
export const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the failing elements, with axe's summary of what to fix. */
  nodes: string[];
}

/**
 * Run axe-core in the page and return its violations (an empty list is a pass). The script is added
 * with `page.addScriptTag({ path })`: a page whose Content-Security-Policy allows only nonce'd scripts
 * needs a browser context created with `bypassCSP: true`.
 *
 * @example
 * const context = await browser.newContext({ bypassCSP: true });
 * const page = await context.newPage();
 * await page.goto(url);
 * expect(formatViolations(await axeViolations(page))).toBe('');
 */
export async function axeViolations(
  page: Page,
  tags: readonly string[] = WCAG21_AA,
): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ path: AXE_SCRIPT_PATH });
  return page.evaluate(
    async (only) => {
      interface AxeResults {
        violations: Array<{
          id: string;
          impact?: string | null;
          help: string;
          nodes: Array<{ target: string[]; failureSummary?: string }>;
        }>;
      }
      const axe = (
        window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: only },
        resultTypes: ['violations'],
      });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
      }));
    },
    [...tags],
  );
}

/** Violations as readable lines for an assertion message ('' when there are none). */
export function formatViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.join('\n  ')}`)
    .join('\n');
}
