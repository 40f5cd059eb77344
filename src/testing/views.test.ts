import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/load.js';

/**
 * Views hold every wire shape (docs/design.md#architecture): a service decides and returns domain values
 * or what a view made of them; it defines no resource shape and formats no timestamp for the wire.
 */
function services(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? services(join(dir, e.name))
      : e.name.endsWith('.service.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/** What a service holds that belongs in a view. */
export function wireShapesIn(path: string, text: string): string[] {
  const found = [...text.matchAll(/^export function (\w+Resource)\b/gm)].map(
    (m) => `${path}: defines ${m[1]}`,
  );
  if (/import \{[^}]*\bformatTimestamp\b[^}]*\} from/.test(text))
    found.push(`${path}: formats timestamps`);
  return found;
}

describe('wire shapes live in views', () => {
  it('no service defines a resource or formats a timestamp', () => {
    const root = packageRoot();
    const files = services(join(root, 'src'));
    expect(files.length).toBeGreaterThan(15);
    expect(files.flatMap((p) => wireShapesIn(relative(root, p), readFileSync(p, 'utf8')))).toEqual(
      [],
    );
  });

  it('names a resource function or a timestamp format in a service', () => {
    const text =
      "import { formatTimestamp, type Clock } from '../shared/clock.js';\nexport function transferResource(t) {}";
    expect(wireShapesIn('src/transfers/transfers.service.ts', text)).toEqual([
      'src/transfers/transfers.service.ts: defines transferResource',
      'src/transfers/transfers.service.ts: formats timestamps',
    ]);
  });
});
