import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./testing/test-service";

describe("service foundation", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  it("refuses a missing key with the auth error shape", async () => {
    const res = await svc.call("/v0/meta", { headers: { "x-api-key": "" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "auth_error", subCode: 4, message: expect.stringMatching(/API key/) });
  });

  it("refuses a wrong key", async () => {
    const res = await svc.call("/v0/meta", { headers: { "x-api-key": "nope" } });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("auth_error");
  });

  it("answers meta with capabilities for a valid key", async () => {
    const res = await svc.call("/v0/meta");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.capabilities.operators).toContain("equal");
  });

  it("answers an unknown path with a 404 in the error shape", async () => {
    const res = await svc.call("/v0/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });
});

describe("record bodies that do not parse or use odd keys", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  it("names a __proto__ key as an unknown property, not as invalid JSON", async () => {
    const res = await svc.call("/v0/record/demo/employees/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"limit": 1, "__proto__": {"x": 1}}',
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ error: "validation_error" });
    expect(body.message).toMatch(/__proto__/);
    expect(body.message).not.toMatch(/not valid JSON/);
  });

  it("says what is wrong with JSON that does not parse", async () => {
    const res = await svc.call("/v0/record/demo/employees/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"limit": ',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/not valid JSON/);
  });
});
