/** Resizing with real sharp (issue 3 item 4): dimensions decoded from the answers. */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { rawRequest, upload, type StorageTestService, startStorageService, blobNames } from "./testing/storage-service";

let svc: StorageTestService;

/** A valid PNG claiming width×height, 1-bit grey: tiny on disk, `width*height` pixels once decoded. */
function pngBomb(width: number, height: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(width / 8)); // filter byte 0, then zeros
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (c: Buffer) => out.push(c));
  for (let y = 0; y < height; y++) deflate.write(row);
  deflate.end();
  return new Promise<Buffer>((resolve) =>
    deflate.on("end", () => resolve(Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", Buffer.concat(out)), chunk("IEND", Buffer.alloc(0))]))),
  );
}

const dims = async (body: Buffer) => {
  const m = await sharp(body).metadata();
  return [m.width, m.height, m.format];
};
const get = (p: string, headers: Record<string, string> = {}) => rawRequest(svc, { path: p, headers });

beforeAll(async () => {
  svc = await startStorageService({ seed: false });
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#c0392b" } }).jpeg().toBuffer();
  const drawing = await sharp({ create: { width: 300, height: 600, channels: 4, background: "#16a08580" } }).png().toBuffer();
  await upload(svc, "public-assets", "img/photo.jpg", photo, { type: "image/jpeg" });
  await upload(svc, "public-assets", "img/drawing.png", drawing, { type: "image/png" });
  await upload(svc, "public-assets", "img/anim.gif", await sharp({ create: { width: 200, height: 100, channels: 3, background: "#f1c40f" } }).gif().toBuffer(), { type: "image/gif" });
  await upload(svc, "public-assets", "img/pic.webp", await sharp({ create: { width: 200, height: 100, channels: 3, background: "#8e44ad" } }).webp().toBuffer(), { type: "image/webp" });
  await upload(svc, "public-assets", "img/notes.txt", "not an image", { type: "text/plain" });
  await upload(svc, "public-assets", "img/fake.png", "not really a png", { type: "image/png" });
});
afterAll(() => svc.close());

describe("resizing", () => {
  it.each([
    ["img/photo.jpg?w=300", [300, 200, "jpeg"]],
    ["img/photo.jpg?h=100", [150, 100, "jpeg"]],
    ["img/photo.jpg?w=300&h=300", [300, 200, "jpeg"]],
    ["img/photo.jpg?w=600&h=100", [150, 100, "jpeg"]],
    ["img/photo.jpg?w=4096", [1200, 800, "jpeg"]],
    ["img/drawing.png?w=100", [100, 200, "png"]],
    ["img/drawing.png?h=300", [150, 300, "png"]],
    ["img/drawing.png?w=1&h=1", [1, 1, "png"]],
    ["img/drawing.png?w=2000&h=2000", [300, 600, "png"]],
    ["img/anim.gif?w=50", [50, 25, "gif"]],
    ["img/pic.webp?h=20", [40, 20, "webp"]],
  ])("%s fits inside, never enlarged, same format: %j", async (query, expected) => {
    const r = await get(`/v0/storage/public/public-assets/${query}`);
    expect(r.status).toBe(200);
    expect(await dims(r.body)).toEqual(expected);
    expect(r.headers["content-type"]).toBe(`image/${expected[2]}`);
    expect(r.headers.etag).toMatch(/^"[0-9a-f]{64}-\d+x\d+"$/);
  });

  it("gives SVG back unchanged for w and h (it is drawn at any size)", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    await upload(svc, "public-assets", "img/icon.svg", svg, { type: "image/svg+xml" });
    const r = await get("/v0/storage/public/public-assets/img/icon.svg?w=100");
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe(svg);
    expect(r.headers["content-type"]).toBe("image/svg+xml");
  });

  it("takes w and h as request headers too (the query wins when both are given)", async () => {
    expect(await dims((await get("/v0/storage/public/public-assets/img/photo.jpg", { w: "120" })).body)).toEqual([120, 80, "jpeg"]);
    expect(await dims((await get("/v0/storage/public/public-assets/img/photo.jpg?w=60", { w: "120" })).body)).toEqual([60, 40, "jpeg"]);
    // One URL, several variants: caches must key on those headers.
    expect((await get("/v0/storage/public/public-assets/img/photo.jpg")).headers.vary).toBe("w, h");
  });

  it("keeps ladder sizes in the variant cache and answers 304 and ranges for them; other sizes are not kept", async () => {
    const first = await get("/v0/storage/public/public-assets/img/photo.jpg?w=128");
    const cached = async () => (await blobNames(svc, "variants/public-assets/")).map((n) => n.split("/").pop());
    expect(await cached()).toContain("128x0.jpeg");
    const again = await get("/v0/storage/public/public-assets/img/photo.jpg?w=128");
    expect(again.body.equals(first.body)).toBe(true);
    expect((await get("/v0/storage/public/public-assets/img/photo.jpg?w=128", { "if-none-match": first.headers.etag as string })).status).toBe(304);
    const part = await get("/v0/storage/public/public-assets/img/photo.jpg?w=128", { range: "bytes=0-1" });
    expect(part.status).toBe(206);
    expect([...part.body]).toEqual([0xff, 0xd8]);
    // Off the ladder: resized for this answer (with ranges and 304 all the same), not kept.
    const odd = await get("/v0/storage/public/public-assets/img/photo.jpg?w=77");
    expect(await dims(odd.body)).toEqual([77, 51, "jpeg"]);
    expect((await get("/v0/storage/public/public-assets/img/photo.jpg?w=77", { "if-none-match": odd.headers.etag as string })).status).toBe(304);
    expect((await cached()).some((n) => n?.startsWith("77x"))).toBe(false);
  });

  it("answers parallel requests for one new variant with identical images", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => get("/v0/storage/public/public-assets/img/drawing.png?w=33")));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.equals(results[0].body)).toBe(true);
    }
    expect(await dims(results[0].body)).toEqual([33, 66, "png"]);
  });

  it.each([
    ["img/photo.jpg?w=0", /out of range/],
    ["img/photo.jpg?w=4097", /out of range/],
    ["img/photo.jpg?h=-3", /whole number/],
    ["img/photo.jpg?w=abc", /whole number/],
    ["img/photo.jpg?w=10&w=20", /one whole number/],
    ["img/notes.txt?w=100", /resize images/],
    ["img/fake.png?w=100", /is not one of them \(or its image data is damaged\)/],
  ])("%s: 400", async (query, message) => {
    const r = await get(`/v0/storage/public/public-assets/${query}`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body.toString()).message).toMatch(message);
  });

  it("a broken image (a JPEG or PNG cut off mid-way) is a 400 in our words that names no file path", async () => {
    const whole = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3a6" } }).jpeg({ quality: 95 }).toBuffer();
    await upload(svc, "public-assets", "img/cut.jpg", whole.subarray(0, Math.floor(whole.length / 3)), { type: "image/jpeg" });
    const variantsBefore = await blobNames(svc, "variants/");
    const r = await get("/v0/storage/public/public-assets/img/cut.jpg?w=128");
    expect(r.status).toBe(400);
    const { error, message } = JSON.parse(r.body.toString()) as { error: string; message: string };
    expect(error).toBe("validation_error");
    // Not the library's text (review 55a #2: "VipsJpeg: premature end of JPEG image").
    expect(message).toBe("The image could not be decoded to resize it: its data seems damaged or cut short (its header reads as a 800×600 jpeg). Leave w and h out to get the file as it is, or upload it again.");
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#a36" } }).png().toBuffer();
    await upload(svc, "public-assets", "img/cut.png", png.subarray(0, 200), { type: "image/png" });
    const p = await get("/v0/storage/public/public-assets/img/cut.png?w=50");
    expect(p.status).toBe(400);
    expect(JSON.parse(p.body.toString()).message).not.toMatch(/vips|libpng|target|\n/);
    expect(message).not.toContain(svc.dataDir);
    expect(message).not.toMatch(/\/tmp\/|\/storage\/|\.part\b|\n\s+at /);
    // Nothing half-made was kept as a variant of it.
    expect(await blobNames(svc, "variants/")).toEqual(variantsBefore);
  });

  it("refuses a decompression bomb (a 30000×30000 PNG) with a 400, without decoding it", async () => {
    const bomb = await pngBomb(30_000, 30_000);
    expect(bomb.length).toBeLessThan(1_000_000);
    await upload(svc, "public-assets", "img/bomb.png", bomb, { type: "image/png" });
    const r = await get("/v0/storage/public/public-assets/img/bomb.png?w=100");
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body.toString()).message).toMatch(/30000×30000 pixels, over the resizing limit/);
    // The original is still served as uploaded.
    expect((await get("/v0/storage/public/public-assets/img/bomb.png")).body.equals(bomb)).toBe(true);
  });
});
