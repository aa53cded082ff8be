/**
 * The generated permission table, through the real proxy: every role × grant (absent, none,
 * viewer, editor) × endpoint (both query paths, every extension), each person signed in
 * through the form. A refused request must be a 403 in the error shape AND must never reach
 * the upstream (a counting relay sits between proxy and service).
 */
import { gzipSync } from "node:zlib";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, matchApiRoute } from "../proxy/routes";
import { fromApp } from "../proxy/testing/test-baseboard";
import { ROLES, type GrantLevel, type Role } from "./contract";
import { signIn, startTeamStack, type TeamStack, waitForMode } from "./testing/team-stack";

const PASSWORD = "a perfectly long passphrase";
const GRANTS: (GrantLevel | undefined)[] = [undefined, "none", "viewer", "editor"];
type Need = "read" | "write" | "delete" | "data-api" | "always";

// Written out plainly here (not imported), so the table is checked against the rules as stated.
function expected(role: Role, grant: GrantLevel | undefined, need: Need): boolean {
  const level = grant ?? (role === "viewer" ? "viewer" : "editor");
  if (need === "always") return true;
  if (need === "data-api") return grant !== "none";
  if (need === "read") return level !== "none";
  if (need === "write") return level === "editor";
  return level === "editor" && role === "admin";
}

const T = "/api/v0/record/demo/employees";
const json = (body: unknown) => ({ "content-type": "application/json", body: JSON.stringify(body) });
const CASES: { name: string; need: Need; method: string; path: string; body?: { "content-type": string; body: string } }[] = [
  { name: "query", need: "read", method: "POST", path: `${T}/query`, body: json({ limit: 1 }) },
  { name: "query with a join", need: "read", method: "POST", path: "/api/v0/record/demo/departments/query", body: json({ limit: 1, join: [{ targetTable: "employees", rules: [{ tableKey: "department", targetTableKey: "department" }] }] }) },
  { name: "alternate query path", need: "data-api", method: "POST", path: "/api/v0/data-api/record/query", body: json({ limit: 1 }) },
  { name: "update", need: "write", method: "POST", path: `${T}/update`, body: json({ filter: { and: [{ key: "employee_id", operator: "equal", value: "NOBODY" }] }, values: [{ key: "city", value: "X" }] }) },
  { name: "fields", need: "read", method: "GET", path: `${T}/fields` },
  { name: "import", need: "write", method: "POST", path: `${T}/import`, body: { "content-type": "text/csv", body: "employee_id,city\n" } },
  { name: "insert", need: "write", method: "POST", path: `${T}/insert`, body: json({ records: [] }) },
  { name: "delete Records", need: "delete", method: "POST", path: `${T}/delete`, body: json({ filter: { and: [{ key: "employee_id", operator: "equal", value: "NOBODY" }] }, expectedCount: 0 }) },
  { name: "distinct", need: "read", method: "POST", path: `${T}/distinct`, body: json({ key: "city" }) },
  { name: "get file", need: "read", method: "GET", path: "/api/v0/storage/public/team-files/nothing.txt" },
  { name: "sign URL", need: "read", method: "GET", path: "/api/v0/storage/url/sign/team-files/nothing.txt" },
  { name: "sign many URLs", need: "read", method: "POST", path: "/api/v0/storage/url/sign/team-files", body: json({ keys: ["nothing.txt"] }) },
  { name: "list", need: "read", method: "GET", path: "/api/v0/storage/list/team-files" },
  { name: "upload", need: "write", method: "POST", path: "/api/v0/storage/object/team-files", body: { "content-type": "multipart/form-data; boundary=x", body: "--x--\r\n" } },
  { name: "delete file", need: "delete", method: "DELETE", path: "/api/v0/storage/object/team-files/nothing.txt" },
  { name: "move job", need: "write", method: "POST", path: "/api/v0/storage/jobs/team-files", body: json({ action: "move", from: "nothing/", to: "elsewhere/" }) },
  // A move that replaces files removes their versions: a delete. A copy that replaces adds a version: a write.
  { name: "move job that replaces", need: "delete", method: "POST", path: "/api/v0/storage/jobs/team-files", body: json({ action: "move", from: "nothing/", to: "elsewhere/", overwrite: true }) },
  { name: "copy job that replaces", need: "write", method: "POST", path: "/api/v0/storage/jobs/team-files", body: json({ action: "copy", from: "nothing/", to: "elsewhere/", overwrite: true }) },
  // Read as the service reads it: a byte-order mark before the JSON hides nothing from the check.
  { name: "delete job after a byte-order mark", need: "delete", method: "POST", path: "/api/v0/storage/jobs/team-files", body: { "content-type": "application/json", body: `\uFEFF${JSON.stringify({ action: "delete", from: "nothing/" })}` } },
  { name: "delete job", need: "delete", method: "POST", path: "/api/v0/storage/jobs/team-files", body: json({ action: "delete", from: "nothing/" }) },
  { name: "job status", need: "read", method: "GET", path: "/api/v0/storage/jobs/team-files/00000000-0000-0000-0000-000000000000" },
  { name: "cancel a job", need: "write", method: "DELETE", path: "/api/v0/storage/jobs/team-files/00000000-0000-0000-0000-000000000000" },
  { name: "search", need: "read", method: "GET", path: "/api/v0/storage/search/team-files?q=a" },
  { name: "file versions", need: "read", method: "GET", path: "/api/v0/storage/versions/team-files/nothing.txt" },
  { name: "restore a version", need: "write", method: "POST", path: "/api/v0/storage/restore/team-files/v1/nothing.txt" },
  { name: "resumable upload start", need: "write", method: "POST", path: "/api/v0/storage/uploads/team-files", body: json({ key: "nothing-resumable.bin", size: 1 }) },
  { name: "resumable upload part", need: "write", method: "PUT", path: "/api/v0/storage/uploads/team-files/00000000-0000-0000-0000-000000000000/parts/1", body: { "content-type": "application/octet-stream", body: "x" } },
  { name: "resumable upload status", need: "write", method: "GET", path: "/api/v0/storage/uploads/team-files/00000000-0000-0000-0000-000000000000" },
  { name: "resumable upload complete", need: "write", method: "POST", path: "/api/v0/storage/uploads/team-files/00000000-0000-0000-0000-000000000000/complete", body: json({}) },
  { name: "resumable upload abort", need: "write", method: "DELETE", path: "/api/v0/storage/uploads/team-files/00000000-0000-0000-0000-000000000000" },
  { name: "meta", need: "always", method: "GET", path: "/api/v0/meta" },
];

let stack: TeamStack;
const cookies = new Map<string, string>();
const who = (role: Role, grant: GrantLevel | undefined) => `${role}-${grant ?? "role"}@example.com`;

beforeAll(async () => {
  stack = await startTeamStack();
  for (const role of ROLES) {
    for (const grant of GRANTS) {
      const email = who(role, grant);
      const added = await stack.admin.add({ email, role, password: PASSWORD });
      expect(added.ok).toBe(true);
      if (grant) {
        // The query-with-join case reads departments and joins employees: grant both tables alike.
        await stack.admin.grant(email, "table:demo/employees", grant);
        await stack.admin.grant(email, "table:demo/departments", grant);
        await stack.admin.grant(email, "bucket:team-files", grant);
      }
    }
  }
  await waitForMode(stack.proxy.url, "people");
  for (const role of ROLES) for (const grant of GRANTS) cookies.set(who(role, grant), await signIn(stack.proxy.url, who(role, grant), PASSWORD));
}, 120_000);
afterAll(() => stack?.stop());

describe("every role × grant × endpoint", () => {
  it("has a case for every endpoint of the proxy's allow list (a signed URL needs no person: its signature decides)", () => {
    const covered = new Set(CASES.map((c) => matchApiRoute(c.method, c.path)).flatMap((r) => (r.kind === "forward" ? [r.endpoint] : [])));
    expect(ENDPOINTS.map((e) => e.name).filter((name) => !covered.has(name) && name !== "signed-file")).toEqual([]);
  });

  for (const role of ROLES) {
    for (const grant of GRANTS) {
      it(`${role} with ${grant ?? "no"} grant`, async () => {
        const base = stack.proxy.url;
        const cookie = cookies.get(who(role, grant)) as string;
        for (const c of CASES) {
          const allowed = expected(role, grant, c.need);
          const before = stack.relay.seen.length;
          const res = await fetch(`${base}${c.path}`, {
            method: c.method,
            headers: { ...fromApp(base), cookie, ...(c.body ? { "content-type": c.body["content-type"] } : {}) },
            body: c.body?.body,
          });
          const text = await res.text();
          // The request itself (its method): the trail may read what a refused one named (the key
          // a resumable upload's session writes), which is not the request going through.
          const reached = stack.relay.seen.slice(before).some((s) => s.method === c.method && s.url.startsWith(c.path.slice(4).split("?")[0].slice(0, 20)));
          const label = `${c.name} as ${role}/${grant ?? "-"}: ${res.status} ${text.slice(0, 160)}`;
          if (allowed) {
            expect(res.status, label).not.toBe(403);
            expect(reached, label).toBe(true);
          } else {
            expect(res.status, label).toBe(403);
            const body = JSON.parse(text);
            expect(body.error, label).toBe("forbidden");
            expect(body.message, label).toMatch(/role|grant|access|hidden/i);
            expect(reached, `${label} reached the upstream`).toBe(false);
          }
        }
      }, 60_000);
    }
  }
});

describe("hidden tables and buckets", () => {
  it("a table or bucket granted none is not in /api/config, /api/v0/meta or /api/me", async () => {
    const base = stack.proxy.url;
    const cookie = cookies.get(who("editor", "none")) as string;
    const config = await (await fetch(`${base}/api/config`, { headers: { cookie } })).json();
    const tables = config.databases.flatMap((d: { tables: { slug: string }[] }) => d.tables.map((t) => t.slug));
    expect(tables).not.toContain("employees");
    expect(tables).not.toContain("departments");
    expect(tables).toContain("catalog");
    expect(config.buckets.map((b: { name: string }) => b.name)).not.toContain("team-files");
    const meta = await (await fetch(`${base}/api/v0/meta`, { headers: { cookie } })).json();
    expect(JSON.stringify(meta)).not.toContain("employees");
    const me = await (await fetch(`${base}/api/me`, { headers: { cookie } })).json();
    expect(Object.keys(me.may.tables)).toEqual(["demo/catalog"]);
    expect(me.may.buckets["team-files"]).toBeUndefined();
    expect(me.may.buckets["public-assets"]).toEqual({ read: true, write: true, delete: false });
    // Not even by name among the person's grants.
    expect(me.grants).toEqual([]);
    expect(JSON.stringify(me)).not.toContain("employees");
  });

  it("a change someone may not make to a table or bucket that does not exist is 404, as it is to those who may; a hidden one stays 403", async () => {
    // Review 38a #5: a viewer writing to demo/nope was told to ask for editor access to it.
    const base = stack.proxy.url;
    const asked = async (cookie: string, path: string, body: unknown) => {
      const r = await fetch(`${base}${path}`, { method: "POST", headers: { cookie, "content-type": "application/json", origin: base, "x-baseboard-client": "1" }, body: JSON.stringify(body) });
      return { status: r.status, message: ((await r.json()) as { message: string }).message };
    };
    for (const who_ of [who("viewer", undefined), who("editor", undefined)]) {
      const cookie = cookies.get(who_) as string;
      expect(await asked(cookie, "/api/v0/record/demo/nope/insert", { records: [{ id: "x" }] }), who_).toEqual({ status: 404, message: 'No table "nope" in database "demo".' });
      expect((await asked(cookie, "/api/v0/record/demo/nope/update", { filter: { and: [] }, values: [{ key: "a", value: 1 }] })).status, who_).toBe(404);
    }
    expect((await asked(cookies.get(who("viewer", undefined)) as string, "/api/v0/storage/jobs/no-such-bucket", { action: "move", from: "a", to: "b" })).status).toBe(404);
    // Hidden (granted none): the refusal, not "no such table".
    expect((await asked(cookies.get(who("editor", "none")) as string, "/api/v0/record/demo/employees/insert", { records: [] })).status).toBe(403);
  });

  it("a join to a hidden table is refused however the body is written; a body the service could not read is refused before it", async () => {
    const base = stack.proxy.url;
    const email = "joiner@example.com";
    expect((await stack.admin.add({ email, role: "viewer", password: PASSWORD })).ok).toBe(true);
    await stack.admin.grant(email, "table:demo/employees", "none");
    const cookie = await signIn(base, email, PASSWORD);
    const join = JSON.stringify({ limit: 2, select: ["department", "employees.annual_salary"], join: [{ targetTable: "employees", rules: [{ tableKey: "department", targetTableKey: "department" }] }] });
    for (const body of [join, `\uFEFF${join}`]) {
      const before = stack.relay.seen.length;
      const res = await fetch(`${base}/api/v0/record/demo/departments/query`, { method: "POST", headers: { ...fromApp(base), cookie, "content-type": "application/json" }, body });
      const text = await res.text();
      expect(res.status, text).toBe(403);
      expect(JSON.parse(text).message).toMatch(/no access to table demo\/employees/);
      expect(stack.relay.seen.length, "reached the upstream").toBe(before);
    }
    // The same query without the join is allowed (the byte-order mark is skipped, as the service skips it).
    const plain = await fetch(`${base}/api/v0/record/demo/departments/query`, { method: "POST", headers: { ...fromApp(base), cookie, "content-type": "application/json" }, body: `\uFEFF${JSON.stringify({ limit: 1 })}` });
    expect(plain.status).toBe(200);
    // Not JSON: 400 in the error shape, from the proxy, saying what is wrong; nothing reaches the upstream.
    const before = stack.relay.seen.length;
    const bad = await fetch(`${base}/api/v0/record/demo/departments/query`, { method: "POST", headers: { ...fromApp(base), cookie, "content-type": "application/json" }, body: `{"join": [` });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "validation_error", message: expect.stringMatching(/^The request body is not valid JSON: it ends before the JSON does/) });
    // A compressed body, labelled or not, is refused as the service refuses it (review 51a #4: the
    // parser's message echoed the gzip bytes), and nothing reaches the upstream.
    const gzip = gzipSync(JSON.stringify({ limit: 1 }));
    const labelled = await fetch(`${base}/api/v0/record/demo/departments/query`, { method: "POST", headers: { ...fromApp(base), cookie, "content-type": "application/json", "content-encoding": "gzip" }, body: gzip });
    expect(labelled.status).toBe(400);
    expect((await labelled.json()).message).toMatch(/^The body is sent with Content-Encoding: gzip, which is not read here: send it uncompressed/);
    const unlabelled = await fetch(`${base}/api/v0/record/demo/departments/query`, { method: "POST", headers: { ...fromApp(base), cookie, "content-type": "application/json" }, body: gzip });
    expect(unlabelled.status).toBe(400);
    expect((await unlabelled.json()).message).toMatch(/^The body is not UTF-8 text at byte 1 \(0x8B; another encoding, such as Latin-1\): send JSON encoded as UTF-8/);
    expect(stack.relay.seen.length).toBe(before);
  });
});

describe("an import that would create a table", () => {
  // Review 27a #8: a new table has no grants yet, so every viewer would see it; creating one is the admin's.
  it("is refused to an editor before it reaches the service (nothing created); an admin's creates it; an editor imports into an existing one", async () => {
    const base = stack.proxy.url;
    const slug = `made_${Date.now()}`;
    const importAs = (email: string, table: string) =>
      fetch(`${base}/api/v0/record/demo/${table}/import`, {
        method: "POST",
        headers: { ...fromApp(base), cookie: cookies.get(email) as string, "content-type": "text/csv" },
        body: "item_id,name\nA1,first\n",
      });
    const before = stack.relay.seen.length;
    const refused = await importAs(who("editor", undefined), slug);
    const text = await refused.text();
    expect(refused.status, text).toBe(403);
    expect(JSON.parse(text)).toMatchObject({ error: "forbidden", message: expect.stringMatching(new RegExp(`no table demo/${slug}.*needs the admin role; your role is editor`)) });
    expect(stack.relay.seen.slice(before).some((s) => s.url.includes(slug)), "reached the upstream").toBe(false);
    const meta = await (await fetch(`${base}/api/v0/meta`, { headers: { cookie: cookies.get(who("admin", undefined)) as string } })).json();
    expect(JSON.stringify(meta)).not.toContain(slug);
    // Once it exists, importing into it is an editor's as before.
    const made = await importAs(who("admin", undefined), slug);
    expect(made.status, await made.text()).toBe(200);
    const into = await importAs(who("editor", undefined), slug);
    expect(into.status, await into.text()).toBe(200);
  });
});

/** An upload whose file part then comes a byte at a time (the caller writes them). */
function drippingUpload(cookie: string, i: number): Promise<net.Socket> {
  const u = new URL(stack.proxy.url);
  const start =
    `--x\r\nContent-Disposition: form-data; name="key"\r\n\r\ndrip/${i}.bin\r\n` +
    `--x\r\nContent-Disposition: form-data; name="file"; filename="${i}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST /api/v0/storage/object/public-assets HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: ${stack.proxy.url}\r\nx-baseboard-client: 1\r\n` +
          `Cookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n${start}`,
      );
      resolve(socket);
    });
    socket.on("error", () => {});
    socket.once("error", reject);
  });
}

/**
 * One person's slow transfers take only their share of an upstream lane (proxy/lane-gate.ts):
 * one editor sends eighteen uploads a byte at a time (each under the idle limit, so none is cut)
 * into the lane of sixteen connections; another editor's upload still goes through while they
 * drip. Without the share, the first held all sixteen and the other waited until they stopped.
 */
describe("a share of the upstream lanes", () => {
  it("one editor's eighteen dripping uploads, over three sessions, leave room for another editor's upload", async () => {
    const base = stack.proxy.url;
    // One person in three sessions is one holder (each session had a share of its own: stop 40).
    const ed1 = [cookies.get(who("editor", undefined)) as string, await signIn(base, who("editor", undefined), PASSWORD), await signIn(base, who("editor", undefined), PASSWORD)];
    const ed2 = cookies.get(who("editor", "editor")) as string;
    const drips = await Promise.all(Array.from({ length: 18 }, (_, i) => drippingUpload(ed1[i % 3], i)));
    const timer = setInterval(() => {
      for (const d of drips) d.write("z");
    }, 500);
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const form = new FormData();
      form.append("key", "drip/other-person.txt");
      form.append("file", new Blob(["hi"], { type: "text/plain" }), "other-person.txt");
      const upload = fetch(`${base}/api/v0/storage/object/public-assets`, { method: "POST", headers: { ...fromApp(base), cookie: ed2 }, body: form }).then((r) => r.status);
      // Settled while the drips go on (they are not stopped before this answers or 20 s pass).
      const settled = await Promise.race([upload, new Promise<string>((r) => setTimeout(() => r("still waiting"), 20_000))]);
      expect(settled).toBe(200);
      expect(drips.filter((d) => d.destroyed)).toHaveLength(0);
    } finally {
      clearInterval(timer);
      for (const d of drips) d.destroy();
    }
  }, 60_000);
});

describe("a resumable upload belongs to the person who started it", () => {
  it("another editor cannot send its parts, read, complete or abort it, even naming its owner; the owner can from any session", async () => {
    const base = stack.proxy.url;
    const email = who("editor", undefined);
    const [ed1, ed1Again] = [cookies.get(email) as string, await signIn(base, email, PASSWORD)];
    const ed2 = cookies.get(who("editor", "editor")) as string;
    const call = (cookie: string, method: string, p: string, body?: string, type = "application/json", extra: Record<string, string> = {}) =>
      fetch(`${base}/api/v0/storage/uploads/public-assets${p}`, { method, headers: { ...fromApp(base), cookie, ...(body !== undefined ? { "content-type": type } : {}), ...extra }, body });
    const started = await call(ed1, "POST", "", JSON.stringify({ key: "owned/by-ed1.txt", size: 5 }));
    expect(started.status).toBe(200);
    const { id } = await started.json();
    // The browser's own header of the name is dropped at the proxy: naming the owner does not help.
    const spoof = { "x-baseboard-owner": `person:${email}` };
    const tries = [
      await call(ed2, "PUT", `/${id}/parts/1`, "WRONG", "application/octet-stream", spoof),
      await call(ed2, "GET", `/${id}`),
      await call(ed2, "POST", `/${id}/complete`, "{}"),
      await call(ed2, "DELETE", `/${id}`, undefined, undefined, spoof),
    ];
    for (const r of tries) {
      expect(r.status).toBe(403);
      expect((await r.json()).message).toMatch(/started by someone else/);
    }
    // Each refusal is in the trail under the file's key: the part and the abort too, which the
    // service refused (review 38a #2: those two were not recorded at all).
    const admin = cookies.get(who("admin", undefined)) as string;
    const refused = async () => {
      const r = await fetch(`${base}/api/audit?kind=refused&bucket=public-assets&key=owned/by-ed1.txt&actor=${encodeURIComponent(who("editor", "editor"))}`, { headers: { cookie: admin } });
      return ((await r.json()) as { items: { asked?: string; action: string }[] }).items;
    };
    await expect.poll(async () => (await refused()).length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    const asked = (await refused()).map((i) => i.asked ?? i.action).sort();
    expect(asked).toEqual(expect.arrayContaining(["upload-part", "upload-session"]));
    expect((await call(ed1Again, "PUT", `/${id}/parts/1`, "hello", "application/octet-stream")).status).toBe(200);
    const done = await call(ed1, "POST", `/${id}/complete`, "{}");
    expect(done.status).toBe(200);
    const { key } = await done.json();
    const file = await fetch(`${base}/api/v0/storage/public/public-assets/${key}`, { headers: { ...fromApp(base), cookie: ed2 } });
    expect(await file.text()).toBe("hello");
  }, 30_000);
});
