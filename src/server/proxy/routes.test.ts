import { describe, expect, it } from "vitest";
import { matchApiRoute } from "./routes";

describe("matchApiRoute: the allow list", () => {
  const forwarded: [string, string, string, string][] = [
    ["POST", "/api/v0/record/demo/employees/query", "/v0/record/demo/employees/query", "query"],
    ["POST", "/api/v0/data-api/record/query", "/v0/data-api/record/query", "query-data-api"],
    ["POST", "/api/v0/record/demo/employees/update", "/v0/record/demo/employees/update", "update"],
    ["GET", "/api/v0/record/demo/employees/fields", "/v0/record/demo/employees/fields", "fields"],
    ["GET", "/api/v0/meta", "/v0/meta", "meta"],
    ["POST", "/api/v0/record/demo/employees/import?primaryKey=id&type=age%3Anumber", "/v0/record/demo/employees/import?primaryKey=id&type=age%3Anumber", "import"],
    ["POST", "/api/v0/storage/object/public-assets", "/v0/storage/object/public-assets", "upload"],
    ["DELETE", "/api/v0/storage/object/public-assets/a/b.png", "/v0/storage/object/public-assets/a/b.png", "delete"],
    ["GET", "/api/v0/storage/public/public-assets/v1/a%20b.png?w=64", "/v0/storage/public/public-assets/v1/a%20b.png?w=64", "get-file"],
    ["HEAD", "/api/v0/storage/public/team-files/x.txt", "/v0/storage/public/team-files/x.txt", "get-file"],
    ["GET", "/api/v0/storage/url/sign/team-files/x.txt?expiresIn=60", "/v0/storage/url/sign/team-files/x.txt?expiresIn=60", "sign-url"],
    // HEAD answers where GET does (review 53a #6: it was "no such endpoint").
    ["HEAD", "/api/v0/storage/url/sign/team-files/x.txt", "/v0/storage/url/sign/team-files/x.txt", "sign-url"],
    ["POST", "/api/v0/storage/url/sign/team-files", "/v0/storage/url/sign/team-files", "sign-many"],
    ["GET", "/api/v0/storage/list/team-files?prefix=a%2Fb&limit=5", "/v0/storage/list/team-files?prefix=a%2Fb&limit=5", "list"],
    ["GET", "/api/v0/storage/public/b/caf%C3%A9.txt", "/v0/storage/public/b/caf%C3%A9.txt", "get-file"],
    ["GET", "/api/v0/storage/versions/team-files/a/b%20c.txt", "/v0/storage/versions/team-files/a/b%20c.txt", "storage-versions"],
    ["POST", "/api/v0/storage/restore/team-files/v1700000000000/a/b.txt", "/v0/storage/restore/team-files/v1700000000000/a/b.txt", "storage-restore"],
    ["POST", "/api/v0/storage/uploads/team-files", "/v0/storage/uploads/team-files", "upload-start"],
    ["PUT", "/api/v0/storage/uploads/team-files/abc/parts/2", "/v0/storage/uploads/team-files/abc/parts/2", "upload-part"],
    ["GET", "/api/v0/storage/uploads/team-files/abc", "/v0/storage/uploads/team-files/abc", "upload-session"],
    ["DELETE", "/api/v0/storage/uploads/team-files/abc", "/v0/storage/uploads/team-files/abc", "upload-session"],
    ["POST", "/api/v0/storage/uploads/team-files/abc/complete", "/v0/storage/uploads/team-files/abc/complete", "upload-complete"],
  ];
  it.each(forwarded)("%s %s → %s", (method, url, upstreamPath, endpoint) => {
    expect(matchApiRoute(method, url)).toMatchObject({ kind: "forward", upstreamPath, endpoint, signed: false });
  });

  it("puts uploads, file reads and JSON calls in separate lanes, and reads only record bodies whole", () => {
    const lane = (method: string, url: string) => {
      const r = matchApiRoute(method, url);
      return r.kind === "forward" ? [r.lane, r.jsonBody] : undefined;
    };
    expect(lane("POST", "/api/v0/record/demo/employees/query")).toEqual(["json", true]);
    expect(lane("POST", "/api/v0/record/demo/employees/update")).toEqual(["json", true]);
    expect(lane("GET", "/api/v0/meta")).toEqual(["json", false]);
    expect(lane("GET", "/api/v0/storage/public/b/x.png?w=64")).toEqual(["files", false]);
    expect(lane("GET", "/api/v0/storage/sign/b/v1/x.png?Expires=1")).toEqual(["files", false]);
    expect(lane("POST", "/api/v0/storage/object/b")).toEqual(["uploads", false]);
    expect(lane("GET", "/api/v0/storage/versions/b/x.png")).toEqual(["json", false]);
    expect(lane("POST", "/api/v0/storage/restore/b/v1/x.png")).toEqual(["uploads", false]);
    // Resumable uploads: parts stream like uploads, the other steps are small JSON calls.
    expect(lane("PUT", "/api/v0/storage/uploads/b/id/parts/1")).toEqual(["uploads", false]);
    expect(lane("POST", "/api/v0/storage/uploads/b")).toEqual(["json", true]);
    expect(lane("POST", "/api/v0/storage/uploads/b/id/complete")).toEqual(["json", true]);
    expect(lane("GET", "/api/v0/storage/uploads/b/id")).toEqual(["json", false]);
  });

  it("checks every resumable upload step as a write to the bucket its path names", () => {
    for (const [method, url] of [
      ["POST", "/api/v0/storage/uploads/team-files"],
      ["PUT", "/api/v0/storage/uploads/team-files/id/parts/1"],
      ["GET", "/api/v0/storage/uploads/team-files/id"],
      ["DELETE", "/api/v0/storage/uploads/team-files/id"],
      ["POST", "/api/v0/storage/uploads/team-files/id/complete"],
    ]) {
      expect(matchApiRoute(method, url)).toMatchObject({ kind: "forward", access: { on: "bucket", action: "write" }, target: "team-files" });
    }
    expect(matchApiRoute("PUT", "/api/v0/storage/uploads/team-files/id/parts")).toMatchObject({ kind: "reject" });
    expect(matchApiRoute("PATCH", "/api/v0/storage/uploads/team-files/id")).toMatchObject({ kind: "reject" });
  });

  it("marks signed URLs, which need no key", () => {
    const r = matchApiRoute("GET", "/api/v0/storage/sign/team-files/v1/x.txt?Expires=1&Key-Pair-Id=k&Signature=s");
    expect(r).toMatchObject({ kind: "forward", signed: true, upstreamPath: "/v0/storage/sign/team-files/v1/x.txt?Expires=1&Key-Pair-Id=k&Signature=s" });
  });

  const rejected: [string, string][] = [
    ["GET", "/api/v0/../admin"],
    ["GET", "/api/v0/./meta"],
    ["GET", "/api/v0/storage%2f.."],
    ["GET", "/api/v0/storage%2F..%2Fadmin"],
    ["GET", "/api/v0/storage/public/b/%2e%2e/secret"],
    ["GET", "/api/v0/storage/public/b/%2E%2E/secret"],
    ["GET", "/api/v0/storage/public/b/..%2fsecret"],
    ["GET", "/api/v0/storage/public/b/..%5csecret"],
    ["GET", "/api/v0/storage/public/b/a%252f..%252fsecret"],
    ["GET", "/api/v0/storage/public/b/a\\..\\secret"],
    ["GET", "/api/v0/storage/public/b/a%00b"],
    ["GET", "/api/v0/storage/public/b//x"],
    ["GET", "/api/v0/storage/public/b/%zz"],
    ["GET", "/api/v1/meta"],
    ["GET", "/api/v1/record/demo/employees/query"],
    ["GET", "/api/admin"],
    ["GET", "/api/v0/meta/"],
    ["GET", "/api/v0/record/demo/employees/drop"],
    ["GET", "/api/v0/record/demo/query"],
    ["GET", "/api/v0/storage/public/only-bucket"],
    ["POST", "/api/v0/storage/object/b/extra"],
    // Right path, wrong method: method by method.
    ["GET", "/api/v0/record/demo/employees/query"],
    ["DELETE", "/api/v0/record/demo/employees/update"],
    ["PUT", "/api/v0/storage/object/b/key"],
    ["POST", "/api/v0/meta"],
    ["DELETE", "/api/v0/storage/object/b"],
    ["POST", "/api/v0/storage/sign/b/k"],
    ["GET", "/api/v0/storage/versions/b"],
    ["POST", "/api/v0/storage/versions/b/k"],
    ["GET", "/api/v0/storage/restore/b/v1/k"],
    ["DELETE", "/api/v0/storage/restore/b/v1/k"],
  ];
  it.each(rejected)("%s %s is refused", (method, url) => {
    expect(matchApiRoute(method, url).kind).toBe("reject");
  });

  it("a file key with a . or .. folder is the service's 400, not \"No endpoint\" (review 57a #6)", () => {
    for (const url of ["/api/v0/storage/public/public-assets/..%2f..%2fapi-key", "/api/v0/storage/public/public-assets/a/../logo.svg", "/api/v0/storage/object/b/%2e%2e/x", "/api/v0/storage/versions/b/./k"]) {
      expect(matchApiRoute("GET", url), url).toMatchObject({ kind: "reject", status: 400, message: expect.stringMatching(/^The object key has a "\.{1,2}" segment; folder names cannot be \. or \.\./) });
    }
    // Outside a file's key it is still no endpoint.
    expect(matchApiRoute("GET", "/api/v0/../admin")).toMatchObject({ kind: "reject", message: expect.stringMatching(/^No endpoint/) });
  });

  it("a file key with an empty folder name is a 400 saying so (decisions §7), not 'no endpoint'", () => {
    for (const [method, url] of [
      ["GET", "/api/v0/storage/versions/b/rev/"],
      ["DELETE", "/api/v0/storage/object/b/secret/"],
      ["GET", "/api/v0/storage/public/b/a//c.txt"],
      ["GET", "/api/v0/storage/url/sign/b/dir/"],
    ]) {
      expect(matchApiRoute(method, url), url).toMatchObject({ kind: "reject", status: 400, message: expect.stringMatching(/empty folder name/) });
    }
    expect(matchApiRoute("GET", "/api/v0/storage/list//")).toMatchObject({ kind: "reject", message: expect.stringMatching(/^No endpoint/) });
  });

  it("a key's %2F is a / of the key, forwarded as sent; a malformed %-escape is a 400 saying so (review 47a #2)", () => {
    for (const url of ["/api/v0/storage/public/team-files/docs%2Freadme.txt", "/api/v0/storage/url/sign/team-files/docs%2freadme.txt", "/api/v0/storage/versions/team-files/a%2Fb%2Fc.txt"]) {
      expect(matchApiRoute("GET", url), url).toMatchObject({ kind: "forward", upstreamPath: url.slice("/api".length), target: "team-files" });
    }
    // Not in the bucket's segment, and not double-encoded or climbing out.
    for (const url of ["/api/v0/storage/public/team%2Ffiles/a.txt", "/api/v0/storage/public/b/a%252Fb", "/api/v0/storage/public/b/a%2F..%2Fsecret"]) {
      expect(matchApiRoute("GET", url).kind, url).toBe("reject");
    }
    for (const url of ["/api/v0/storage/public/b/a%ff%fe.txt", "/api/v0/storage/public/b/a%zz.txt"]) {
      expect(matchApiRoute("GET", url), url).toMatchObject({ kind: "reject", status: 400, message: "The path has a malformed %-escape: encode each path segment with encodeURIComponent." });
    }
  });

  it("names the allowed methods when only the method is wrong", () => {
    expect(matchApiRoute("GET", "/api/v0/record/demo/employees/query")).toEqual({
      kind: "reject",
      message: "/api/v0/record/demo/employees/query does not take GET; use POST.",
      allow: "POST",
    });
  });
});
