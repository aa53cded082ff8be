import { describe, expect, it } from "vitest";
import { type Operation, authorize, parseBuckets, sampleBuckets } from "./buckets";

const [publicAssets, teamFiles, vault] = parseBuckets(JSON.stringify({ buckets: sampleBuckets }), "test");
const readOnly = parseBuckets(JSON.stringify({ buckets: [{ name: "ro", permission: "public", access: ["read"] }] }), "test")[0];

describe("authorize (interface §2.6, decisions §7)", () => {
  const inside = "127.0.0.1";
  const outside = "127.0.0.2";
  it.each([
    // public: reads need nothing; writes and the key-only extensions need a key.
    [publicAssets, "read", { hasKey: false, address: outside }, undefined],
    [publicAssets, "read", { hasKey: true, address: outside }, undefined],
    [publicAssets, "create", { hasKey: false, address: inside }, "auth_error"],
    [publicAssets, "create", { hasKey: true, address: outside }, undefined],
    [publicAssets, "update", { hasKey: true, address: outside }, undefined],
    [publicAssets, "list", { hasKey: false, address: inside }, "auth_error"],
    [publicAssets, "sign", { hasKey: false, address: inside }, "auth_error"],
    [publicAssets, "delete", { hasKey: true, address: inside }, undefined],
    // limitedPublic: key and address, for everything.
    [teamFiles, "read", { hasKey: false, address: inside }, "auth_error"],
    [teamFiles, "read", { hasKey: true, address: inside }, undefined],
    [teamFiles, "read", { hasKey: true, address: "::1" }, undefined],
    [teamFiles, "read", { hasKey: true, address: outside }, "forbidden"],
    [teamFiles, "create", { hasKey: true, address: outside }, "forbidden"],
    [teamFiles, "list", { hasKey: true, address: undefined }, "forbidden"],
    // A signature stands in for key and address.
    [teamFiles, "read", { hasKey: false, address: outside, signed: true }, undefined],
    // forbidden: nobody, not even with a key or a signature.
    [vault, "read", { hasKey: true, address: inside }, "forbidden"],
    [vault, "read", { hasKey: false, address: inside, signed: true }, "forbidden"],
    [vault, "create", { hasKey: true, address: inside }, "forbidden"],
    // Access kinds.
    [readOnly, "read", { hasKey: false, address: inside }, undefined],
    [readOnly, "create", { hasKey: true, address: inside }, "forbidden"],
    [readOnly, "update", { hasKey: true, address: inside }, "forbidden"],
    [readOnly, "delete", { hasKey: true, address: inside }, "forbidden"],
    [readOnly, "sign", { hasKey: true, address: inside }, undefined],
  ] as const)("%#: %s %s %j", (bucket, op, caller, expected) => {
    expect(authorize(bucket, op as Operation, caller)?.code).toBe(expected);
  });

  it("says what is missing", () => {
    expect(authorize(readOnly, "create", { hasKey: true, address: inside })?.message).toMatch(/does not grant create access \(it grants: read\)/);
    expect(authorize(teamFiles, "read", { hasKey: true, address: outside })?.message).toMatch(/127\.0\.0\.2 is not one of them/);
  });
});

describe("parseBuckets", () => {
  it.each([
    ["{", /not valid JSON/],
    ['{"buckets":[{"name":"Bad Name","permission":"public"}]}', /buckets\.0\.name/],
    ['{"buckets":[{"name":"a","permission":"secret"}]}', /buckets\.0\.permission/],
    ['{"buckets":[{"name":"a","permission":"public","access":["write"]}]}', /buckets\.0\.access/],
    ['{"buckets":[{"name":"a","permission":"limitedPublic","access":["read"]}]}', /no allowedIps/],
    ['{"buckets":[{"name":"a","permission":"limitedPublic","allowedIps":["999.1.1.1"]}]}', /not a valid IP/],
    ['{"buckets":[{"name":"a","permission":"public"},{"name":"a","permission":"public"}]}', /listed twice/],
    ['{"buckets":[{"name":"a","permission":"public","extra":1}]}', /extra|Unrecognized/],
  ])("refuses %s", (text, message) => {
    expect(() => parseBuckets(text, "buckets.json")).toThrow(message);
  });

  it("accepts the sample buckets with their access kinds and allow list", () => {
    expect(teamFiles.allowList.allows("::1")).toBe(true);
    expect(vault.access).toEqual([]);
    expect(publicAssets.access).toEqual(["read", "create", "update"]);
  });
});
