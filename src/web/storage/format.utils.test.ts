import { describe, expect, it } from "vitest";
import { formatValue } from "../records/values/values.utils";
import { describeExpiry, expiresFromUrl, fileKind, formatBytes, formatDate, humanDuration, isVectorImage, typeLabel, versionFileName } from "./format.utils";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KiB"],
    [1536, "1.5 KiB"],
    [10 * 1024, "10 KiB"],
    [5 * 1024 * 1024, "5 MiB"],
    [3.25 * 1024 ** 3, "3.3 GiB"],
    [undefined, "—"],
    [-1, "—"],
  ])("%j → %j", (n, s) => expect(formatBytes(n)).toBe(s));
});

describe("dates and lifetimes", () => {
  it("formats a local date and time exactly as the grid shows a datetime (one format in the app)", () => {
    const d = new Date(2026, 0, 5, 7, 3);
    expect(formatDate(d.toISOString())).toBe(formatValue("datetime", d.toISOString()));
    expect(formatDate(d.toISOString())).toBe(new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }).format(d));
    expect(formatDate(d.getTime())).toContain("2026");
    expect(formatDate("nonsense")).toBe("—");
    expect(formatDate(undefined)).toBe("—");
  });

  it.each([
    [300, "5 minutes"],
    [3600, "1 hour"],
    [7200, "2 hours"],
    [604800, "7 days"],
    [90, "90 seconds"],
  ])("humanDuration(%j) = %j", (s, out) => expect(humanDuration(s)).toBe(out));

  it("says when a link expires", () => {
    const now = new Date(2026, 10, 21, 14, 5).getTime();
    expect(describeExpiry(3600, now)).toBe(`Expires at ${formatDate(now + 3600_000)} (in 1 hour)`);
    expect(describeExpiry(7 * 86400, now)).toBe(`Expires at ${formatDate(now + 7 * 86400_000)} (in 7 days)`);
  });

  it("believes the URL's Expires over the lifetime asked for", () => {
    const now = new Date(2026, 10, 21, 14, 5).getTime();
    // Same to within a minute (clock steps, rounding): the chosen label stands.
    expect(describeExpiry(300, now, now + 299_000)).toBe(`Expires at ${formatDate(now + 299_000)} (in 5 minutes)`);
    // An upstream that ignored expiresIn and gave its default hour.
    expect(describeExpiry(7 * 86400, now, now + 3600_000)).toBe(`Expires at ${formatDate(now + 3600_000)} (in 1 hour)`);
    expect(describeExpiry(3600, now, now + 90 * 60_000)).toBe(`Expires at ${formatDate(now + 90 * 60_000)} (in 90 minutes)`);
  });

  it("reads Expires from a signed URL", () => {
    expect(expiresFromUrl("http://h/api/v0/storage/sign/b/v1/k?Expires=1700000000&Signature=x")).toBe(1_700_000_000_000);
    expect(expiresFromUrl("http://h/x")).toBeUndefined();
    expect(expiresFromUrl("not a url")).toBeUndefined();
  });
});

describe("vector images (sent unresized, so no w/h asked)", () => {
  it.each<[string | undefined, string, boolean]>([
    ["image/svg+xml", "logo", true],
    [undefined, "a/LOGO.SVG", true],
    ["image/png", "a.png", false],
    [undefined, "a.svgz.png", false],
  ])("isVectorImage(%j, %j) = %s", (ct, key, expected) => expect(isVectorImage(ct, key)).toBe(expected));
});

describe("file kinds", () => {
  it.each([
    ["image/png", "a.png", "image"],
    [undefined, "a.JPG", "image"],
    ["application/octet-stream", "a.webp", "image"],
    ["image/svg+xml", "a.svg", "image"],
    [undefined, "a.svg", "image"],
    ["application/pdf", "x", "pdf"],
    [undefined, "manual.pdf", "pdf"],
    ["text/plain; charset=utf-8", "readme.txt", "text"],
    ["application/json", "a.json", "text"],
    ["video/mp4", "a.mp4", "video"],
    ["application/zip", "a.zip", "archive"],
    ["application/x-thing", "a.png", "other"],
    [undefined, "noext", "other"],
  ])("fileKind(%j, %j) = %j", (ct, key, kind) => expect(fileKind(ct, key)).toBe(kind));

  it.each([
    ["image/png", "a.png", "PNG image"],
    ["application/pdf", "m.pdf", "PDF document"],
    ["text/plain", "r.txt", "TXT text"],
    ["application/x-thing", "a.bin", "application/x-thing"],
    [undefined, "noext", "File"],
    ["image/svg+xml", "logo.svg", "SVG image"],
  ])("typeLabel(%j, %j) = %j", (ct, key, label) => expect(typeLabel(ct, key)).toBe(label));
});

describe("an older version's download name", () => {
  it("says which version, before the extension", () => {
    expect(versionFileName("report.pdf", 2)).toBe("report (version 2).pdf");
    expect(versionFileName("archive.tar.gz", 1)).toBe("archive.tar (version 1).gz");
    expect(versionFileName("README", 3)).toBe("README (version 3)");
    expect(versionFileName(".env", 1)).toBe(".env (version 1)");
  });
});
