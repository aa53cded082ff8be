/** BASEBOARD_PASSWORD: the login page, the session cookie, rate-limited attempts. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_REQUIRED_SUBCODE } from "../../shared/meta";
import { MAX_FAILURES } from "./session";
import { fromApp, raw, type RawInit, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

const PASSWORD = "correct horse battery staple";
let board: TestBaseboard;

const login = (password: string, init: RawInit = {}, next = "/records") =>
  raw(board.url, "/login", {
    method: "POST",
    ...init,
    headers: { origin: board.url, "content-type": "application/x-www-form-urlencoded", ...init.headers },
    body: new URLSearchParams({ password, next }).toString(),
  });
const cookieOf = (setCookie: string[] | undefined) => (setCookie?.[0] ?? "").split(";")[0];

beforeAll(async () => {
  board = await startTestBaseboard({ BASEBOARD_PASSWORD: PASSWORD, API_KEY: "proxy-key-login-0c7d" });
});
afterAll(async () => {
  await board?.stop();
});

describe("login", () => {
  it("turns away pages and /api without a session, but not /api/health", async () => {
    const page = await raw(board.url, "/records/demo/employees", { headers: { accept: "text/html" } });
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe("/login?next=%2Frecords%2Fdemo%2Femployees");
    const api = await raw(board.url, "/api/config");
    expect(api.status).toBe(401);
    expect(api.json()).toMatchObject({ error: "auth_error", subCode: LOGIN_REQUIRED_SUBCODE });
    const post = await raw(board.url, "/api/v0/record/demo/employees/query", { method: "POST", headers: fromApp(board.url), body: "{}" });
    expect(post.status).toBe(401);
    expect((await raw(board.url, "/api/health")).json()).toEqual({ ok: true, proxy: "up", service: "up", restarts: 0 });
  });

  it("shows a login form", async () => {
    const res = await raw(board.url, "/login?next=/records");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.text).toContain('name="password"');
    expect(res.text).toContain('value="/records"');
    expect(res.text).not.toContain("Your session ended");
    // Sent here by the app because the session ended: said above the form.
    const ended = await raw(board.url, "/login?next=/records&reason=ended");
    expect(ended.text).toContain('<p class="notice" role="status">Your session ended: you logged out in another tab');
    expect(ended.text).toContain('value="/records"');
  });

  it("refuses a login form posted from another site, and takes one from a script (no Origin, no Sec-Fetch-Site)", async () => {
    const res = await login(PASSWORD, { headers: { origin: "http://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.headers["set-cookie"]).toBeUndefined();
    const crossSite = await raw(board.url, "/login", { method: "POST", headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ password: PASSWORD }).toString() });
    expect(crossSite.status).toBe(403);
    const script = await raw(board.url, "/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ password: PASSWORD }).toString() });
    expect(script.status).toBe(303);
    expect(script.headers["set-cookie"]?.[0]).toMatch(/^bb_session=/);
  });

  it("logs in with an HttpOnly, SameSite=Strict cookie, and out again", async () => {
    const wrong = await login("nope");
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("Wrong password");

    const res = await login(PASSWORD);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/records");
    const set = res.headers["set-cookie"]?.[0] ?? "";
    expect(set).toMatch(/^bb_session=[\w.-]{40,};/);
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Strict");
    expect(set).toContain("Path=/");
    const cookie = cookieOf(res.headers["set-cookie"]);

    const cfg = await raw(board.url, "/api/config", { headers: { cookie } });
    expect(cfg.status).toBe(200);
    expect((await raw(board.url, "/", { headers: { cookie, accept: "text/html" } })).status).toBe(200);
    // A session is no excuse for a cross-site request.
    const forged = await raw(board.url, "/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: { cookie, origin: "http://evil.example", "x-baseboard-client": "1" },
      body: "{}",
    });
    expect(forged.status).toBe(403);

    const out = await raw(board.url, "/logout", { method: "POST", headers: { cookie, origin: board.url } });
    expect(out.status).toBe(303);
    expect(out.headers["set-cookie"]?.[0]).toContain("Max-Age=0");
    expect((await raw(board.url, "/api/config", { headers: { cookie } })).status).toBe(401);
  });

  it("answers a form far past a password's length in words (413), not with an error, and still logs in after", async () => {
    const res = await login("x".repeat(50_000));
    expect(res.status).toBe(413);
    expect(res.text).toContain("The form was too large");
    expect((await login(PASSWORD)).status).toBe(303);
  });

  it("never redirects to another site after login", async () => {
    const res = await login(PASSWORD, {}, "//evil.example/x");
    expect(res.headers.location).toBe("/");
  });

  it("limits wrong attempts per client address", async () => {
    const other = { localAddress: "127.0.0.2" };
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login(`guess-${i}`, other)).status).toBe(401);
    const blocked = await login(PASSWORD, other);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    expect(blocked.headers["set-cookie"]).toBeUndefined();
    // Another address is not blocked by this one's guesses.
    expect((await login(PASSWORD)).status).toBe(303);
  });

  it("lets signed URLs through without a session: their signature is the authorization", async () => {
    const res = await raw(board.url, "/api/v0/storage/sign/public-assets/v1/x.txt?Expires=1&Key-Pair-Id=k&Signature=s");
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: "forbidden" });
  });
});
