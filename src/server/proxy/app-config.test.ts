/**
 * GET /api/config against upstreams that cannot describe themselves (the hosted interface has
 * no meta) or refuse the key: plain capabilities, the config file, and readable errors.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp, raw, type RawUpstream, startRawUpstream, startTestBaseboard } from "./testing/test-baseboard";
import { startTestService } from "../service/testing/test-service";

const KEY = "proxy-key-config-2a7e";
const PLAIN = { operators: ["equal"], fields: false, meta: false, list: false, delete: false, expiresIn: false, import: false };
let hosted: RawUpstream;

beforeAll(async () => {
  hosted = await startRawUpstream((req, res) => {
    const ok = req.headers["x-api-key"] === KEY;
    res.writeHead(ok ? 404 : 401, { "content-type": "application/json" });
    res.end(JSON.stringify(ok ? { error: "not_found", subCode: 2, message: "No such endpoint" } : { error: "auth_error", subCode: 4, message: "Invalid API key" }));
  });
});
afterAll(async () => {
  await hosted?.close();
});

async function configOf(env: Record<string, string>) {
  const board = await startTestBaseboard({ BASE_URL: hosted.url, ...env });
  try {
    const res = await raw(board.url, "/api/config");
    return { status: res.status, body: res.json() as Record<string, unknown> };
  } finally {
    await board.stop();
  }
}

describe("/api/config for an upstream without meta", () => {
  it("offers the interface's capabilities alone and says how to list tables", async () => {
    const { status, body } = await configOf({ API_KEY: KEY });
    expect(status).toBe(200);
    expect(body).toMatchObject({ databases: [], buckets: [], capabilities: PLAIN, upstream: { kind: "hosted", label: new URL(hosted.url).host } });
    expect(body.notice).toMatch(/baseboard\.config\.json/);
  });

  it("takes tables, buckets, label and capability overrides from the config file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-cfg-"));
    const file = path.join(dir, "hosted.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        label: "Acme production",
        databases: [
          { id: "hr", tables: [{ slug: "people", primaryKey: "id" }] },
          {
            id: "shop",
            tables: [
              {
                slug: "catalog",
                primaryKey: "sku",
                fields: [
                  { key: "sku", type: "text" },
                  { key: "image", type: "image", bucket: "docs" },
                  { key: "price", type: "number", nullable: false },
                ],
              },
            ],
          },
        ],
        buckets: [{ name: "docs", permission: "limitedPublic", access: ["read", "create"] }],
        capabilities: { fields: true },
      }),
    );
    const { body } = await configOf({ API_KEY: KEY, BASEBOARD_CONFIG: file });
    expect(body).toEqual({
      databases: [
        { id: "hr", tables: [{ slug: "people", primaryKey: "id" }] },
        {
          id: "shop",
          tables: [
            {
              slug: "catalog",
              primaryKey: "sku",
              fields: [
                { key: "sku", type: "text" },
                { key: "image", type: "image", bucket: "docs" },
                { key: "price", type: "number", nullable: false },
              ],
            },
          ],
        },
      ],
      buckets: [{ name: "docs", permission: "limitedPublic", access: ["read", "create"] }],
      capabilities: { ...PLAIN, fields: true },
      upstream: { kind: "hosted", label: "Acme production" },
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [{ databases: [{ id: "hr", tables: [{ slug: "people" }] }] }, /databases\.0\.tables\.0\.primaryKey/],
    [{ buckets: [{ name: "b", permission: "open" }] }, /buckets\.0\.permission/],
    [{ capabilities: { operators: ["like"] } }, /capabilities\.operators\.0/],
    [{ tables: [] }, /tables/],
    [{ databases: [{ id: "d", tables: [{ slug: "t", primaryKey: "id", fields: [{ key: "a", type: "money" }] }] }] }, /databases\.0\.tables\.0\.fields\.0\.type/],
    [{ databases: [{ id: "d", tables: [{ slug: "t", primaryKey: "id", fields: [{ key: "pic", type: "image" }] }] }] }, /fields\.0\.bucket: an image or attachment Field needs its bucket/],
    [{ databases: [{ id: "d", tables: [{ slug: "t", primaryKey: "id", fields: [{ key: "a", type: "text" }, { key: "a", type: "number" }] }] }] }, /fields: a Field is declared twice/],
  ])("refuses to start with an invalid config file %j, naming the field", async (content, message) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-cfg-"));
    const file = path.join(dir, "bad.json");
    fs.writeFileSync(file, JSON.stringify(content));
    await expect(startTestBaseboard({ BASE_URL: hosted.url, API_KEY: KEY, BASEBOARD_CONFIG: file })).rejects.toThrow(message);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a refused key is the gateway's error naming API_KEY, on /api/config and on every forwarded request (review 46a #3)", async () => {
    // Not the upstream's 401 "send it in the x-api-key header": the browser cannot, and a 401 from
    // /api means "sign in" (decisions §8).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-cfg-key-"));
    const file = path.join(dir, "hosted.json");
    fs.writeFileSync(file, JSON.stringify({ databases: [{ id: "hr", tables: [{ slug: "people", primaryKey: "id" }] }], buckets: [{ name: "files", permission: "limitedPublic" }] }));
    const board = await startTestBaseboard({ BASE_URL: hosted.url, API_KEY: "wrong-key", BASEBOARD_CONFIG: file });
    try {
      const asked = [
        await raw(board.url, "/api/config"),
        await raw(board.url, "/api/v0/record/hr/people/query", { method: "POST", headers: fromApp(board.url, { "content-type": "application/json" }), body: "{}" }),
        await raw(board.url, "/api/v0/storage/url/sign/files/a.txt", { headers: fromApp(board.url) }),
      ];
      for (const res of asked) {
        expect(res.status, res.text).toBe(502);
        const body = res.json() as Record<string, unknown>;
        expect(body).toMatchObject({ error: "bad_gateway" });
        expect(body.message).toMatch(/refused Baseboard's API key \(HTTP 401\), so nothing was read or changed: set API_KEY where Baseboard runs/);
        expect(JSON.stringify(body)).not.toContain("wrong-key");
      }
    } finally {
      await board.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a wrong key against an upstream that answers its missing catalog before looking at the key", () => {
  it("/api/config is the gateway's error naming API_KEY, not 200 with the file's tables (review 52a #2)", async () => {
    // The local service as the hosted interface (no /v0/meta), which says 404 to any key.
    const upstream = await startTestService({ profile: "interface" });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-cfg-wrongkey-"));
    const file = path.join(dir, "hosted.json");
    fs.writeFileSync(file, JSON.stringify({ databases: [{ id: "demo", tables: [{ slug: "employees", primaryKey: "employee_id" }] }], buckets: [{ name: "team-files", permission: "limitedPublic" }] }));
    try {
      expect((await fetch(`${upstream.url}/v0/meta`, { headers: { "x-api-key": "wrong-key" } })).status).toBe(404);
      for (const [key, status] of [["wrong-key", 502], [upstream.key, 200]] as const) {
        const board = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: key, BASEBOARD_CONFIG: file });
        try {
          const res = await raw(board.url, "/api/config");
          expect(res.status, key).toBe(status);
          if (status === 502) expect((res.json() as { message: string }).message).toMatch(/refused Baseboard's API key \(HTTP 401\).*set API_KEY/);
          else expect(res.json()).toMatchObject({ databases: [{ id: "demo" }], capabilities: { meta: false } });
        } finally {
          await board.stop();
        }
      }
      // Only tables listed: the key is checked by a query of no Records.
      fs.writeFileSync(file, JSON.stringify({ databases: [{ id: "demo", tables: [{ slug: "employees", primaryKey: "employee_id" }] }], buckets: [] }));
      const board = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: "wrong-key", BASEBOARD_CONFIG: file });
      try {
        expect((await raw(board.url, "/api/config")).status).toBe(502);
      } finally {
        await board.stop();
      }
    } finally {
      await upstream.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an upstream known by the config file alone", () => {
  it("refuses a table or bucket the file does not list, saying where to add it; a listed one is forwarded", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-cfg-listed-"));
    const file = path.join(dir, "hosted.json");
    fs.writeFileSync(file, JSON.stringify({ databases: [{ id: "hr", tables: [{ slug: "people", primaryKey: "id" }] }], buckets: [{ name: "docs", permission: "public", access: ["read"] }] }));
    const board = await startTestBaseboard({ BASE_URL: hosted.url, API_KEY: KEY, BASEBOARD_CONFIG: file });
    try {
      const post = (p: string) => fetch(`${board.url}${p}`, { method: "POST", headers: { origin: board.url, "x-baseboard-client": "1", "content-type": "application/json" }, body: "{}" });
      const unlisted = await post("/api/v0/record/hr/salaries/query");
      expect(unlisted.status).toBe(404);
      const said = (await unlisted.json()).message as string;
      expect(said).toMatch(/^Table hr\/salaries is not listed in [^/ ]*hosted\.json \(BASEBOARD_CONFIG\): .*Add it there and restart\./);
      // The file's name, not where it is on the server (review 49a #4).
      expect(said).not.toContain("/tmp");
      const bucket = await fetch(`${board.url}/api/v0/storage/public/secret/a.txt`);
      expect(bucket.status).toBe(404);
      expect((await bucket.json()).message).toMatch(/^Bucket secret is not listed in/);
      // Listed: it reaches the upstream (whose own answer comes back).
      const listed = await post("/api/v0/record/hr/people/query");
      expect((await listed.json()).message).toBe("No such endpoint");
      // A local-service extension this upstream does not declare: said by the proxy, not the
      // upstream's bare 404, and never sent (review 29a #10).
      const before = hosted.seen.length;
      const insert = await post("/api/v0/record/hr/people/insert");
      expect(insert.status).toBe(404);
      expect((await insert.json()).message).toMatch(/^The service at 127\.0\.0\.1:\d+ does not offer adding Records \(insert\): it is an extension of Baseboard's local service/);
      const meta = await fetch(`${board.url}/api/v0/meta`, { headers: { origin: board.url, "x-baseboard-client": "1" } });
      expect(meta.status).toBe(404);
      expect((await meta.json()).message).toMatch(/does not offer a catalog of its databases, tables and buckets/);
      const search = await fetch(`${board.url}/api/v0/storage/search/docs?q=a`, { headers: { origin: board.url, "x-baseboard-client": "1" } });
      expect(search.status).toBe(404);
      expect((await search.json()).message).toMatch(/does not offer searching a whole bucket/);
      expect(hosted.seen.slice(before).filter((r) => r.url.includes("/insert") || r.url.includes("/search"))).toEqual([]);
      const zip = await fetch(`${board.url}/api/zip`, { method: "POST", headers: { origin: board.url, "x-baseboard-client": "1", "content-type": "application/json" }, body: JSON.stringify({ bucket: "docs", items: ["a/"] }) });
      expect(zip.status).toBe(400);
      expect((await zip.json()).message).toMatch(/^Folders cannot be zipped here: .*Select the files themselves\.$/);
    } finally {
      await board.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
