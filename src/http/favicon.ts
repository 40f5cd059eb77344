import type { Hono } from 'hono';
import type { AppEnv } from './operation.js';

const SIZE = 16;

/**
 * A 16×16 icon (a green disc on white, the dashboard's accent), built as a real `.ico` file at start so
 * that every page's automatic `/favicon.ico` request finds one (no 404 in the log or the console). The
 * image is a 32-bit BMP inside the ICO container: header, one directory entry, BITMAPINFOHEADER, pixels
 * bottom-up as BGRA, and the 1-bit AND mask (all zero: the alpha channel decides).
 */
export function faviconBytes(): Buffer {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // 16 bits per row, padded to 32
  const image = 40 + pixels + mask;
  const buf = Buffer.alloc(6 + 16 + image);
  buf.writeUInt16LE(0, 0); // reserved
  buf.writeUInt16LE(1, 2); // type: icon
  buf.writeUInt16LE(1, 4); // one image
  buf.writeUInt8(SIZE, 6);
  buf.writeUInt8(SIZE, 7);
  buf.writeUInt16LE(1, 10); // colour planes
  buf.writeUInt16LE(32, 12); // bits per pixel
  buf.writeUInt32LE(image, 14);
  buf.writeUInt32LE(22, 18); // offset of the image
  let at = 22;
  buf.writeUInt32LE(40, at); // BITMAPINFOHEADER
  buf.writeInt32LE(SIZE, at + 4);
  buf.writeInt32LE(SIZE * 2, at + 8); // XOR + AND masks
  buf.writeUInt16LE(1, at + 12);
  buf.writeUInt16LE(32, at + 14);
  buf.writeUInt32LE(pixels + mask, at + 20);
  at += 40;
  const c = (SIZE - 1) / 2;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const inside = (x - c) ** 2 + (y - c) ** 2 <= 7.2 ** 2;
      // BGRA: #15803d inside, transparent outside.
      buf.writeUInt32LE(inside ? 0xff15803d : 0, at);
      at += 4;
    }
  }
  return buf;
}

/** `GET /favicon.ico`: the icon, cached for a day. */
export function registerFavicon(app: Hono<AppEnv>): void {
  const bytes = faviconBytes();
  app.get('/favicon.ico', (c) =>
    c.body(new Uint8Array(bytes), 200, {
      'content-type': 'image/x-icon',
      'cache-control': 'public, max-age=86400',
    }),
  );
}
