// A small PNG reader for the harness's screenshots (Chromium writes 8-bit RGB or RGBA,
// non-interlaced): enough to count the pixels of a WebGL canvas that differ from its background,
// which cannot be read back from the page once the frame is composited.
import { inflateSync } from 'node:zlib';

/** Decodes an 8-bit, non-interlaced greyscale / RGB / RGBA PNG into RGBA bytes. */
export function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8;
  let width = 0, height = 0, colorType = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      colorType = body[9];
      if (depth !== 8 || body[12] !== 0 || ![0, 2, 6].includes(colorType)) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colorType}, interlace ${body[12]})`);
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const ch = colorType === 6 ? 4 : colorType === 2 ? 3 : 1;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * ch;
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = px.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? px.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= ch ? row[i - ch] : 0;
      const b = up[i];
      const c = i >= ch ? up[i - ch] : 0;
      let v = src[i];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      row[i] = v & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const s = i * ch;
    rgba[i * 4] = px[s];
    rgba[i * 4 + 1] = ch >= 3 ? px[s + 1] : px[s];
    rgba[i * 4 + 2] = ch >= 3 ? px[s + 2] : px[s];
    rgba[i * 4 + 3] = ch === 4 ? px[s + 3] : 255;
  }
  return { width, height, data: rgba };
}

/**
 * How much of an image is not its background (the most common colour): the share of pixels more
 * than `tol` away from it (max channel difference) and how many distinct colours (4 bits a channel) they have.
 */
export function inkStats({ width, height, data }, tol = 24) {
  const counts = new Map();
  for (let i = 0; i < data.length; i += 4) {
    const k = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  let bg = 0, best = -1;
  for (const [k, n] of counts) if (n > best) [bg, best] = [k, n];
  const [br, bgG, bb] = [(bg >> 16) & 255, (bg >> 8) & 255, bg & 255];
  let ink = 0;
  const colors = new Set();
  for (let i = 0; i < data.length; i += 4) {
    const d = Math.max(Math.abs(data[i] - br), Math.abs(data[i + 1] - bgG), Math.abs(data[i + 2] - bb));
    if (d > tol) {
      ink++;
      colors.add(((data[i] >> 4) << 8) | ((data[i + 1] >> 4) << 4) | (data[i + 2] >> 4));
    }
  }
  return { background: `rgb(${br}, ${bgG}, ${bb})`, ink: ink / (width * height), colors: colors.size, width, height };
}
