/** SERVICE_PROFILE=interface over real HTTP (contract D, decisions §9), beside the full profile. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstNonInterfaceOperator, parseServiceProfile } from "./profile";
import { type TestService, startTestService } from "./testing/test-service";
import { upload } from "./storage/testing/storage-service";

const Q = "/v0/record/demo/employees/query";

describe("SERVICE_PROFILE=interface", () => {
  let svc: TestService;
  let versioned = "";
  beforeAll(async () => {
    svc = await startTestService({ profile: "interface", publicBaseUrl: "http://svc.example/" });
    versioned = (await (await upload(svc, "team-files", "p/note.txt", "hello", { type: "text/plain" })).json()).key;
  });
  afterAll(() => svc.close());

  it.each([
    ["GET", "/v0/meta"],
    ["GET", "/v0/record/demo/employees/fields"],
    ["POST", "/v0/record/demo/employees/import"],
    ["GET", "/v0/storage/list/team-files"],
    ["GET", "/v0/storage/list/team-files?prefix=p/"],
    ["DELETE", "/v0/storage/object/team-files/p/note.txt"],
    ["GET", "/v0/storage/versions/team-files/p/note.txt"],
    ["POST", "/v0/storage/restore/team-files/v1/p/note.txt"],
    ["POST", "/v0/storage/uploads/team-files"],
    ["PUT", "/v0/storage/uploads/team-files/00000000-0000-0000-0000-000000000000/parts/1"],
    ["POST", "/v0/storage/url/sign/team-files"],
  ])("%s %s is 404 not_found, with or without a key", async (method, path) => {
    for (const headers of [{}, { "x-api-key": "" }] as Record<string, string>[]) {
      const res = await svc.call(path, { method, headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "not_found", subCode: expect.any(Number), message: expect.stringContaining("No endpoint") });
    }
  });

  it("keeps the file that a refused delete named", async () => {
    await svc.call("/v0/storage/object/team-files/p/note.txt", { method: "DELETE" });
    const res = await svc.call("/v0/storage/public/team-files/p/note.txt");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
  });

  it("answers equal filters, nested, as the full service does", async () => {
    const res = await svc.call(Q, {
      json: { filter: { and: [{ or: [{ key: "country", operator: "equal", value: "Brazil" }] }] }, limit: 2 },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.count).toBeGreaterThan(0);
    expect(body.items.every((r: { country: string }) => r.country === "Brazil")).toBe(true);
  });

  it.each([
    ["filter", { filter: { and: [{ key: "age", operator: "greaterThan", value: 30 }] } }],
    ["a deeply nested filter", { filter: { and: [{ or: [{ and: [{ key: "country", operator: "contains", value: "a" }] }] }] } }],
    ["addtionalFilter", { addtionalFilter: { and: [{ key: "country", operator: "startsWith", value: "B" }] } }],
  ])("refuses an operator other than equal in %s with a 400", async (_name, body) => {
    const res = await svc.call(Q, { json: body });
    expect(res.status).toBe(400);
    const err = await res.json();
    expect(err.error).toBe("validation_error");
    expect(err.message).toMatch(/only "equal"/);
  });

  it("refuses a non-equal operator in an update and writes nothing", async () => {
    const before = await (await svc.call(Q, { json: { filter: { and: [{ key: "employee_id", operator: "equal", value: "E00001" }] } } })).json();
    const res = await svc.call("/v0/record/demo/employees/update", {
      json: { values: [{ key: "city", value: "Nowhere" }], filter: { and: [{ key: "employee_id", operator: "notEqual", value: "x" }] } },
    });
    expect(res.status).toBe(400);
    const after = await (await svc.call(Q, { json: { filter: { and: [{ key: "employee_id", operator: "equal", value: "E00001" }] } } })).json();
    expect(after.items[0].city).toBe(before.items[0].city);
  });

  it("still updates through an equal filter, and answers no before-images even when asked", async () => {
    const res = await svc.call("/v0/record/demo/employees/update", {
      headers: { "x-baseboard-before-images": "10" },
      json: { fixedValue: [], values: [{ key: "city", value: "Porto" }], filter: { and: [{ key: "employee_id", operator: "equal", value: "E00002" }] } },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "ok" });
  });

  it("ignores expiresIn: the signed URL lives 3,600 s", async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await svc.call(`/v0/storage/url/sign/team-files/${versioned}?expiresIn=60`);
    expect(res.status).toBe(200);
    const expires = Number(new URL((await res.json()).url).searchParams.get("Expires"));
    expect(expires - now).toBeGreaterThanOrEqual(3599);
    expect(expires - now).toBeLessThanOrEqual(3602);
  });
});

describe("the full profile (default) keeps its extensions", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ seed: true });
  });
  afterAll(() => svc.close());

  it("answers fields, meta and non-equal operators, and honours expiresIn", async () => {
    expect((await svc.call("/v0/meta")).status).toBe(200);
    expect((await svc.call("/v0/record/demo/employees/fields")).status).toBe(200);
    const q = await svc.call(Q, { json: { filter: { and: [{ key: "age", operator: "greaterThan", value: 30 }] }, limit: 1 } });
    expect(q.status).toBe(200);
  });
});

describe("profile helpers", () => {
  it("parses SERVICE_PROFILE", () => {
    expect(parseServiceProfile(undefined)).toBe("full");
    expect(parseServiceProfile("interface")).toBe("interface");
    expect(() => parseServiceProfile("hosted")).toThrow(/SERVICE_PROFILE/);
  });
  it("walks 10,000 levels without recursion", () => {
    let f: unknown = { key: "a", operator: "isEmpty" };
    for (let i = 0; i < 10_000; i++) f = { and: [f] };
    expect(firstNonInterfaceOperator(f)).toBe("isEmpty");
  });
});
