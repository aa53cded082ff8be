import { describe, expect, it } from "vitest";
import { lightboxBox, objectUrl, pixelBox, publicUrl } from "./thumb.utils";

describe("pixelBox", () => {
  it.each([
    [160, 120, 1, { w: 160, h: 120 }],
    [160, 120, 2, { w: 320, h: 240 }],
    [160, 120, 1.5, { w: 240, h: 180 }],
    [33, 33, 1.25, { w: 41, h: 41 }],
    [3000, 10, 2, { w: 4096, h: 20 }],
    [0.2, 0.2, 1, { w: 1, h: 1 }],
    [100, 100, 0, { w: 100, h: 100 }],
    [100, 100, Number.NaN, { w: 100, h: 100 }],
  ])("%j×%j at dpr %j", (w, h, dpr, out) => expect(pixelBox(w, h, dpr)).toEqual(out));

  it("sizes the lightbox image from the viewport", () => {
    expect(lightboxBox(1000, 800, 2)).toEqual({ w: 1680, h: 1152 });
    expect(lightboxBox(50, 50, 1)).toEqual({ w: 100, h: 100 });
  });
});

describe("object URLs", () => {
  it("encodes bucket and key and adds the box", () => {
    expect(objectUrl("public-assets", "catalog/a b.png")).toBe("/api/v0/storage/public/public-assets/catalog/a%20b.png");
    expect(objectUrl("b", "k.png", { w: 10, h: 20 })).toBe("/api/v0/storage/public/b/k.png?w=10&h=20");
    expect(publicUrl("http://127.0.0.1:5173", "b", "x/y.jpg")).toBe("http://127.0.0.1:5173/api/v0/storage/public/b/x/y.jpg");
  });
});
