import { describe, expect, it } from "vitest";
import { lightboxBox, objectUrl, pixelBox, publicUrl } from "./thumb.utils";

describe("pixelBox (device pixels, snapped up to the service's cached sizes)", () => {
  it.each([
    [160, 120, 1, { w: 256, h: 128 }],
    [160, 120, 2, { w: 512, h: 256 }],
    [160, 120, 1.5, { w: 256, h: 256 }],
    [33, 33, 1.25, { w: 64, h: 64 }],
    [64, 128, 1, { w: 64, h: 128 }],
    [3000, 10, 2, { w: 2048, h: 64 }],
    [0.2, 0.2, 1, { w: 64, h: 64 }],
    [100, 100, 0, { w: 128, h: 128 }],
    [100, 100, Number.NaN, { w: 128, h: 128 }],
  ])("%j×%j at dpr %j", (w, h, dpr, out) => expect(pixelBox(w, h, dpr)).toEqual(out));

  it("sizes the lightbox image from the viewport, snapped up to the ladder", () => {
    expect(lightboxBox(1000, 800, 2)).toEqual({ w: 2048, h: 1536 });
    expect(lightboxBox(1000, 800, 1)).toEqual({ w: 1024, h: 768 });
    // The box of review 29b #12 (a 1462×820 window): not 2048×1024.
    expect(lightboxBox(1462, 820, 1)).toEqual({ w: 1536, h: 768 });
    expect(lightboxBox(50, 50, 1)).toEqual({ w: 128, h: 128 });
  });
});

describe("object URLs", () => {
  it("encodes bucket and key and adds the box", () => {
    expect(objectUrl("public-assets", "catalog/a b.png")).toBe("/api/v0/storage/public/public-assets/catalog/a%20b.png");
    expect(objectUrl("b", "k.png", { w: 10, h: 20 })).toBe("/api/v0/storage/public/b/k.png?w=10&h=20");
    expect(publicUrl("http://127.0.0.1:5173", "b", "x/y.jpg")).toBe("http://127.0.0.1:5173/api/v0/storage/public/b/x/y.jpg");
  });
});
