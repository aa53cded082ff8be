import { describe, expect, it } from "vitest";
import { isLoopbackHost, parseBaseUrl, parseProxyConfig } from "./config";
import { browserResponseHeaders, upstreamRequestHeaders } from "./headers";
import { createAttemptLimiter, readCookie, safeNext } from "./session";

describe("parseProxyConfig", () => {
  it("defaults to loopback:5173 and the embedded service", () => {
    const c = parseProxyConfig({}, "/app");
    expect(c).toMatchObject({ host: "127.0.0.1", port: 5173, baseUrl: undefined, configFile: "/app/baseboard.config.json", distDir: "/app/dist" });
  });

  it.each(["0.0.0.0", "::", "192.168.1.5", "example.com"])("refuses HOST=%s without a password", (host) => {
    expect(() => parseProxyConfig({ HOST: host })).toThrow(/BASEBOARD_PASSWORD/);
    expect(parseProxyConfig({ HOST: host, BASEBOARD_PASSWORD: "pw" }).host).toBe(host);
  });

  it.each(["127.0.0.1", "::1", "localhost", "127.0.0.2"])("allows HOST=%s without a password", (host) => {
    expect(parseProxyConfig({ HOST: host }).host).toBe(host);
  });

  it.each(["abc", "-1", "70000", "1.5"])("refuses PORT=%s", (port) => {
    expect(() => parseProxyConfig({ PORT: port })).toThrow(/PORT/);
  });
});

describe("parseBaseUrl", () => {
  const ok: [string, string][] = [
    ["https://team.example.com", "https://team.example.com"],
    ["https://team.example.com/", "https://team.example.com"],
    ["https://team.example.com/prefix/", "https://team.example.com/prefix"],
    ["http://127.0.0.1:8787", "http://127.0.0.1:8787"],
    ["http://localhost:8787", "http://localhost:8787"],
    ["http://[::1]:8787", "http://[::1]:8787"],
  ];
  it.each(ok)("%s → %s", (raw, expected) => expect(parseBaseUrl(raw)).toBe(expected));
  const bad: [string, RegExp][] = [
    ["http://team.example.com", /https/],
    ["http://10.0.0.5:8787", /https/],
    ["ftp://x", /https/],
    ["not a url", /not a URL/],
    ["https://user:pw@x.example", /user name/],
    ["https://x.example/?a=1", /query/],
  ];
  it.each(bad)("refuses %s", (raw, message) => expect(() => parseBaseUrl(raw)).toThrow(message));
  it("knows loopback", () => {
    expect([isLoopbackHost("127.9.9.9"), isLoopbackHost("[::1]"), isLoopbackHost("10.0.0.1"), isLoopbackHost("evil.com")]).toEqual([true, true, false, false]);
  });
});

describe("headers across the proxy", () => {
  it("drops the browser's key, cookies, Origin and hop-by-hop headers, and adds ours", () => {
    const out = upstreamRequestHeaders(
      {
        "x-api-key": "browser-key",
        cookie: "bb_session=abc",
        authorization: "Bearer x",
        origin: "http://127.0.0.1:5173",
        connection: "keep-alive, range",
        range: "bytes=0-1",
        "transfer-encoding": "chunked",
        "content-type": "application/json",
        "if-none-match": '"e"',
        w: "64",
      },
      "proxy-key",
    );
    expect(out).toEqual({ "x-api-key": "proxy-key", "content-type": "application/json", "if-none-match": '"e"', w: "64" });
  });

  it("passes the answer's content headers, not cookies, CORS or hop-by-hop ones", () => {
    const out = browserResponseHeaders({
      "content-type": "image/png",
      "content-length": "10",
      "content-range": "bytes 0-9/20",
      "accept-ranges": "bytes",
      etag: '"abc"',
      "cache-control": "private",
      "content-disposition": "inline",
      "x-matched-count": "3",
      "set-cookie": ["a=b"],
      "access-control-allow-origin": "*",
      connection: "close",
      "keep-alive": "timeout=5",
      "transfer-encoding": "chunked",
      "x-api-key": "leak",
    });
    expect(Object.keys(out).sort()).toEqual(
      ["accept-ranges", "cache-control", "content-disposition", "content-length", "content-range", "content-type", "etag", "x-matched-count"].sort(),
    );
  });
});

describe("login helpers", () => {
  it("reads one cookie among several", () => {
    expect(readCookie("a=1; bb_session=tok; c=3", "bb_session")).toBe("tok");
    expect(readCookie("xbb_session=tok", "bb_session")).toBeUndefined();
    expect(readCookie(undefined, "bb_session")).toBeUndefined();
  });

  it.each([
    ["/records?x=1", "/records?x=1"],
    ["//evil.example", "/"],
    ["https://evil.example", "/"],
    ["/\\evil.example", "/"],
    // A URL parser drops tabs and newlines: these are "//evil.example" to a browser.
    ["/\t/evil.example/x", "/"],
    ["/\n/evil.example", "/"],
    ["/a\r\nx", "/"],
    ["/\u0000", "/"],
    // Outside printable ASCII: percent-encoded, since a header holds bytes.
    ["/records/demo/日本?q=a b", "/records/demo/%E6%97%A5%E6%9C%AC?q=a%20b"],
    [null, "/"],
    // A step of signing in is not where to go back to (review 50b #3).
    ["/auth/oidc/start", "/"],
    ["/login?next=/x", "/"],
    ["/invite/abc", "/"],
    ["/authors", "/authors"],
  ])("next %j → %j", (next, expected) => expect(safeNext(next)).toBe(expected));

  it("limits failures per address in a sliding window", () => {
    const limiter = createAttemptLimiter(3, 1000);
    for (let i = 0; i < 3; i++) limiter.fail("a", i);
    expect(limiter.retryAfter("a", 10)).toBe(1);
    expect(limiter.retryAfter("b", 10)).toBe(0);
    expect(limiter.retryAfter("a", 1001)).toBe(0);
    limiter.succeed("a");
    expect(limiter.retryAfter("a", 10)).toBe(0);
  });
});
