import { describe, expect, it } from "vitest";
import { clientAddress, compileAllowList } from "./address";

describe("compileAllowList", () => {
  const list = compileAllowList(["127.0.0.1", "::1", "10.1.0.0/16", "fd00::/8", "::ffff:192.168.0.0/112"]);
  it.each([
    ["127.0.0.1", true],
    ["::ffff:127.0.0.1", true],
    ["::1", true],
    ["[::1]", true],
    ["127.0.0.2", false],
    ["10.1.200.3", true],
    ["10.2.0.1", false],
    ["fd12:3456::1", true],
    ["fe80::1", false],
    ["192.168.4.4", true],
    ["192.169.0.1", false],
    ["not an ip", false],
    ["", false],
    [undefined, false],
  ])("%j -> %s", (addr, expected) => {
    expect(list.allows(addr)).toBe(expected);
  });

  it.each(["300.1.1.1", "10.0.0.0/33", "nonsense/8", "hostname"])("refuses the entry %j", (entry) => {
    expect(() => compileAllowList([entry])).toThrow(/not a valid/);
  });
});

describe("clientAddress", () => {
  it.each([
    ["127.0.0.1", undefined, false, "127.0.0.1"],
    ["127.0.0.1", "203.0.113.9", false, "127.0.0.1"],
    ["127.0.0.1", "203.0.113.9", true, "203.0.113.9"],
    ["127.0.0.1", "6.6.6.6, 203.0.113.9", true, "203.0.113.9"],
    ["127.0.0.1", ["6.6.6.6", "203.0.113.9"], true, "203.0.113.9"],
    ["127.0.0.1", " , ", true, "127.0.0.1"],
  ] as const)("socket %s, XFF %j, trust %s", (socket, xff, trust, expected) => {
    expect(clientAddress(socket, xff as string | string[] | undefined, trust)).toBe(expected);
  });
});
