// Draws the app icon (a white invoice sheet with a green check on a blue rounded square) and writes
// assets/icons/{icon.png,512x512.png,256x256.png} with a minimal PNG encoder (node:zlib). No image
// tooling needed; electron-builder derives .ico/.icns from the PNGs. Run: node scripts/make-icons.mjs
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'assets', 'icons');

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** RGBA pixels (Uint8Array, width*height*4) → PNG bytes. */
export function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

function insideRoundedRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}
function distToSegment(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

export function drawIcon(size) {
  const px = new Uint8Array(size * size * 4);
  const S = 4; // 4x4 supersampling for smooth edges
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const u = (x + (sx + 0.5) / S) / size; // 0..1
          const v = (y + (sy + 0.5) / S) / size;
          let c = null;
          if (insideRoundedRect(u, v, 0.04, 0.04, 0.96, 0.96, 0.2)) c = [21, 101, 192]; // blue tile
          if (c && insideRoundedRect(u, v, 0.27, 0.18, 0.73, 0.82, 0.04)) c = [255, 255, 255]; // sheet
          if (c && c[0] === 255) {
            for (const line of [0.3, 0.38, 0.46]) {
              if (v > line && v < line + 0.035 && u > 0.34 && u < (line === 0.46 ? 0.55 : 0.66)) c = [144, 164, 174];
            }
            const d = Math.min(distToSegment(u, v, 0.4, 0.64, 0.47, 0.71), distToSegment(u, v, 0.47, 0.71, 0.62, 0.55));
            if (d < 0.03) c = [46, 160, 67]; // check mark
          }
          if (c) {
            r += c[0];
            g += c[1];
            b += c[2];
            a += 255;
          }
        }
      }
      const n = S * S;
      const i = (y * size + x) * 4;
      const cover = a / 255;
      px[i] = cover ? Math.round(r / cover) : 0;
      px[i + 1] = cover ? Math.round(g / cover) : 0;
      px[i + 2] = cover ? Math.round(b / cover) : 0;
      px[i + 3] = Math.round(a / n);
    }
  }
  return px;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(outDir, { recursive: true });
  for (const [name, size] of [
    ['icon.png', 512],
    ['512x512.png', 512],
    ['256x256.png', 256],
  ]) {
    writeFileSync(path.join(outDir, name), encodePng(size, size, drawIcon(size)));
    console.log(`wrote assets/icons/${name} (${size}x${size})`);
  }
}
