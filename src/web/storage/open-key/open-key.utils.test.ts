import { describe, expect, it } from "vitest";
import { parseKeyInput } from "./open-key.utils";

const ok = (text: string) => {
  const r = parseKeyInput("team-files", text);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const problem = (text: string) => {
  const r = parseKeyInput("team-files", text);
  if (r.ok) throw new Error(`accepted ${text}`);
  return r.message;
};

describe("parseKeyInput", () => {
  it("takes a plain key, trimmed, without a leading slash", () => {
    expect(ok("  docs/report final.pdf ")).toEqual({ key: "docs/report final.pdf", baseKey: "docs/report final.pdf", versioned: false });
    expect(ok("/docs/a.txt").key).toBe("docs/a.txt");
  });
  it("takes a versioned key: that version is opened, the catalogue keeps the key", () => {
    expect(ok("v1732300000123/docs/a.txt")).toEqual({ key: "v1732300000123/docs/a.txt", baseKey: "docs/a.txt", versioned: true });
  });
  it("takes a pasted public or signed URL of a file in this bucket, decoded", () => {
    expect(ok("http://localhost:5173/api/v0/storage/public/team-files/docs/report%20final.pdf").key).toBe("docs/report final.pdf");
    const signed = ok("https://svc.example/v0/storage/sign/team-files/v17/a%2Bb.txt?Expires=1&Key-Pair-Id=k&Signature=s");
    expect(signed).toEqual({ key: "v17/a+b.txt", baseKey: "a+b.txt", versioned: true });
  });
  it("says what is wrong otherwise", () => {
    expect(problem("   ")).toMatch(/Type or paste/);
    expect(problem("https://svc.example/v0/storage/public/public-assets/a.png")).toMatch(/bucket “public-assets”, not “team-files”/);
    expect(problem("https://svc.example/index.html")).toMatch(/not the address of a file/);
    expect(problem("docs//a.txt")).toMatch(/empty folder name/);
    expect(problem("docs/../a.txt")).toMatch(/\.\./);
  });
});
