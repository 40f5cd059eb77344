import { createRequire } from 'node:module';
import type BwipJs from 'bwip-js';

// bwip-js is 2.3 MB of code (~60 ms to load): loaded on the first barcode, not at every start-up.
let bwipjs: typeof BwipJs | undefined;
const loadBwip = () => (bwipjs ??= createRequire(import.meta.url)('bwip-js') as typeof BwipJs);

/** Code 128 at 2 px per module with a 10-module quiet zone each side, the digits printed below. */
export const BARCODE_OPTIONS = {
  bcid: 'code128',
  scale: 2,
  height: 12,
  includetext: true,
  textxalign: 'center',
  paddingwidth: 10,
  paddingheight: 2,
  backgroundcolor: 'ffffff',
} as const;

/** A reference number never changes, so its drawing is kept (bounded: oldest dropped first). */
const CACHE_SIZE = 256;
const cache = new Map<string, string>();

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A scannable Code 128 barcode of an over-the-counter reference number, as inline SVG (bwip-js,
 * docs/design.md#hosted-payment-page): no image request, works offline.
 */
export function barcodeSvg(text: string): string {
  let svg = cache.get(text);
  if (svg === undefined) {
    const label = escapeAttr(`Barcode of reference number ${text}`);
    svg = loadBwip()
      .toSVG({ ...BARCODE_OPTIONS, text })
      .replace(
        '<svg ',
        `<svg role="img" aria-label="${label}" data-testid="barcode" focusable="false" `,
      );
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(text, svg);
  }
  return svg;
}
