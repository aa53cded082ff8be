import { describe, expect, it } from "vitest";
import { apiRequestRefusal, checkHost, ownHosts } from "./guard";

describe("checkHost: DNS rebinding", () => {
  const own = ownHosts({ host: "127.0.0.1", port: 5173, allowedHosts: ["admin.lan"], publicOrigin: "https://board.example.com" });
  const cases: [string | undefined, string | undefined][] = [
    ["127.0.0.1:5173", "127.0.0.1:5173"],
    ["localhost:5173", "localhost:5173"],
    ["LOCALHOST:5173", "localhost:5173"],
    ["[::1]:5173", "[::1]:5173"],
    ["admin.lan:5173", "admin.lan:5173"],
    ["board.example.com", "board.example.com"],
    ["127.0.0.1:5174", undefined],
    ["127.0.0.1", undefined],
    ["evil.example:5173", undefined],
    ["127.0.0.1.evil.example:5173", undefined],
    ["localhost:5173@evil", undefined],
    ["", undefined],
    [undefined, undefined],
    ["127.0.0.1:5173, evil:5173", undefined],
    ["[::1:5173", undefined],
    ["\u0000", undefined],
    ["a".repeat(5000), undefined],
  ];
  it.each(cases)("Host %j → %j", (header, expected) => {
    expect(checkHost(header, own)).toBe(expected);
  });

  it("a specific non-loopback bind answers to its own address", () => {
    const lan = ownHosts({ host: "192.168.1.20", port: 80, allowedHosts: [] });
    expect(checkHost("192.168.1.20", lan)).toBe("192.168.1.20");
    expect(checkHost("192.168.1.21", lan)).toBeUndefined();
  });
});

describe("apiRequestRefusal: CSRF", () => {
  const host = "127.0.0.1:5173";
  const good = { origin: "http://127.0.0.1:5173", "x-baseboard-client": "1", "sec-fetch-site": "same-origin" };
  const cases: [string, Record<string, string>, boolean, boolean][] = [
    ["our page, POST", good, false, true],
    ["GET without Origin", {}, true, true],
    ["address bar navigation", { "sec-fetch-site": "none" }, true, true],
    ["cross-site GET (img, fetch)", { "sec-fetch-site": "cross-site" }, true, false],
    ["same-site GET from another port", { "sec-fetch-site": "same-site" }, true, false],
    ["POST from a non-browser client (no Origin, no Sec-Fetch-Site)", {}, false, true],
    ["POST from a browser without Origin", { "x-baseboard-client": "1", "sec-fetch-site": "same-origin" }, false, false],
    ["POST with only a cross-site Sec-Fetch-Site", { "sec-fetch-site": "cross-site" }, false, false],
    ["POST with Origin null", { origin: "null", "x-baseboard-client": "1" }, false, false],
    ["POST from another host", { origin: "http://evil.example", "x-baseboard-client": "1" }, false, false],
    ["POST from another port", { origin: "http://127.0.0.1:5174", "x-baseboard-client": "1" }, false, false],
    ["POST from our host under https", { origin: "https://127.0.0.1:5173", "x-baseboard-client": "1" }, false, false],
    ["POST from our origin without our header", { origin: "http://127.0.0.1:5173" }, false, false],
    ["POST with our header set to something else", { origin: "http://127.0.0.1:5173", "x-baseboard-client": "yes" }, false, false],
    ["POST with garbage Origin", { origin: "http://[::1", "x-baseboard-client": "1" }, false, false],
    ["POST with trailing slash Origin", { origin: "http://127.0.0.1:5173/", "x-baseboard-client": "1" }, false, false],
  ];
  it.each(cases)("%s", (_name, headers, safe, allowed) => {
    expect(apiRequestRefusal(headers, host, safe) === undefined).toBe(allowed);
  });

  it("accepts the public origin behind a TLS terminator", () => {
    const headers = { origin: "https://board.example.com", "x-baseboard-client": "1" };
    expect(apiRequestRefusal(headers, "board.example.com", false, "https://board.example.com")).toBeUndefined();
  });
});
