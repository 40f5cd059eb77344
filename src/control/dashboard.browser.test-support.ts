import { createRequire } from 'node:module';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

/** Test support for the dashboard's browser test (imported by dashboard.browser.test.ts only). */

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A merchant's callback endpoint on 127.0.0.1 that answers 200 with a recognisable body and records what it got. */
export async function startCallbackReceiver(): Promise<{ url: string; received: ReceivedCallback[]; stop(): Promise<void> }> {
  const received: ReceivedCallback[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`receiver got callback #${received.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface DashboardAxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core (the npm package, injected from node_modules: no download) over the whole page, WCAG 2.1
 * A and AA rules only; the violations as short records that read well in a failed assertion.
 */
export async function dashboardAxeViolations(page: Page): Promise<DashboardAxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id as string,
      impact: v.impact as string | null,
      help: v.help as string,
      targets: (v.nodes as Array<{ target: string[] }>).slice(0, 5).map((n) => n.target.join(' ')),
    }));
  }, WCAG_21_AA);
}

/** WCAG relative luminance contrast of two CSS `rgb(...)` colors. */
export function contrastRatio(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
