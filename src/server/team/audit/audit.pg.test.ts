/**
 * The audit trail on PostgreSQL: two proxies on one database append concurrently to ONE chain
 * (no forks: `npm run audit -- verify` walks it whole), and a database turned read-only under
 * the running proxies makes them refuse changes (503, nothing forwarded) instead of making
 * changes nobody recorded.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../service/engines/postgres/testing/test-database";
import { fromApp, startTestBaseboard, type TestBaseboard } from "../../proxy/testing/test-baseboard";
import { runAuditCommand } from "./cli";

let db: TestDatabase;
let a: TestBaseboard;
let b: TestBaseboard;

beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
  a = await startTestBaseboard({ BASEBOARD_DATABASE_URL: db.url });
  b = await startTestBaseboard({ BASEBOARD_DATABASE_URL: db.url });
}, 120_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await db?.drop();
});

const update = (board: TestBaseboard, id: string, city: string) =>
  fetch(`${board.url}/api/v0/record/demo/employees/update`, {
    method: "POST",
    headers: { ...fromApp(board.url), "content-type": "application/json" },
    body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: id }] }, values: [{ key: "city", value: city }] }),
  });

async function audit(args: string[]) {
  const lines: string[] = [];
  const prev = process.env.BASEBOARD_DATABASE_URL;
  process.env.BASEBOARD_DATABASE_URL = db.url;
  try {
    return { code: await runAuditCommand(args, (s) => lines.push(s)), out: lines.join("\n") };
  } finally {
    if (prev === undefined) delete process.env.BASEBOARD_DATABASE_URL;
    else process.env.BASEBOARD_DATABASE_URL = prev;
  }
}

describe("the audit trail on one PostgreSQL", () => {
  it("two proxies appending at once make one chain that verifies", async () => {
    const writes: Promise<Response>[] = [];
    for (let i = 0; i < 20; i++) {
      writes.push(update(a, `E000${String(i + 10).padStart(2, "0")}`, `A${i}`));
      writes.push(update(b, `E000${String(i + 40).padStart(2, "0")}`, `B${i}`));
    }
    const res = await Promise.all(writes);
    expect(res.map((r) => r.status)).toEqual(res.map(() => 200));
    const v = await audit(["verify"]);
    expect(v.out).toMatch(/verifies: 80 entries/);
    expect(v.code).toBe(0);
    const history = await (await fetch(`${b.url}/api/audit?table=demo/employees&record=E00010`)).json();
    expect(history.items[0]).toMatchObject({ action: "update", outcome: "applied", changes: [{ key: "E00010", after: { city: "A0" } }] });
    // The history index is not in the chain: verify checks it against the entries.
    const store = new pg.Client({ connectionString: db.url });
    await store.connect();
    try {
      await store.query("DELETE FROM bb_audit_keys WHERE key = 'E00010'");
      const hidden = await audit(["verify"]);
      expect(hidden.code).toBe(1);
      expect(hidden.out).toMatch(/history index was changed: the history of "E00010" does not list entry \d+/);
      expect((await (await fetch(`${b.url}/api/audit?table=demo/employees&record=E00010`)).json()).items).toEqual([]);
      await store.query("INSERT INTO bb_audit_keys (resource, key, seq) SELECT resource, 'E00010', seq FROM bb_audit WHERE keys::jsonb ? 'E00010'");
      expect((await audit(["verify"])).code).toBe(0);
      // The checkpoint moved over kept entries, one of them edited: not passed as "dropped" (review 37a #2).
      const [first, tenth] = (await store.query<{ seq: string; hash: string; actor_email: string }>("SELECT seq::text, hash, actor_email FROM bb_audit ORDER BY seq LIMIT 10")).rows.filter((_, i) => i === 0 || i === 9);
      const cp = (await store.query<{ seq: string; hash: string }>("SELECT seq::text, hash FROM bb_audit_checkpoint WHERE id = 1")).rows[0];
      await store.query("UPDATE bb_audit SET actor_email = 'forged@example.com' WHERE seq = $1", [first.seq]);
      await store.query("UPDATE bb_audit_checkpoint SET seq = $1, hash = $2 WHERE id = 1", [tenth.seq, tenth.hash]);
      const moved = await audit(["verify"]);
      expect(moved.code).toBe(1);
      expect(moved.out).toMatch(new RegExp(`entry ${first.seq} is still stored behind the checkpoint \\(entry ${tenth.seq}\\).*the checkpoint was moved over entries that were kept`));
      await store.query("UPDATE bb_audit_checkpoint SET seq = $1, hash = $2 WHERE id = 1", [cp.seq, cp.hash]);
      await store.query("UPDATE bb_audit SET actor_email = $2 WHERE seq = $1", [first.seq, first.actor_email]);
      expect((await audit(["verify"])).code).toBe(0);
    } finally {
      await store.end();
    }
  });

  it("a Record's history follows a change of its key back to what came before (written by one proxy, read through the other)", async () => {
    expect((await update(a, "E00071", "Oslo")).status).toBe(200);
    const rename = await fetch(`${a.url}/api/v0/record/demo/employees/update`, {
      method: "POST",
      headers: { ...fromApp(a.url), "content-type": "application/json" },
      body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00071" }] }, values: [{ key: "employee_id", value: "R-71" }] }),
    });
    expect(rename.status).toBe(200);
    expect((await update(a, "R-71", "Bergen")).status).toBe(200);
    const items = (await (await fetch(`${b.url}/api/audit?table=demo/employees&record=R-71`)).json()).items;
    expect(items.map((e: { recordKey?: string; changes: { after: unknown }[] }) => [e.recordKey, e.changes[0].after])).toEqual([
      [undefined, { city: "Bergen" }],
      ["E00071", { employee_id: "R-71" }],
      ["E00071", { city: "Oslo" }],
    ]);
    const second = await (await fetch(`${b.url}/api/audit?table=demo/employees&record=R-71&limit=2`)).json();
    const rest = await (await fetch(`${b.url}/api/audit?table=demo/employees&record=R-71&limit=2&cursor=${encodeURIComponent(second.nextCursor)}`)).json();
    expect([...second.items, ...rest.items].map((e: { seq: number }) => e.seq)).toEqual(items.map((e: { seq: number }) => e.seq));
    expect((await audit(["verify"])).code).toBe(0);
  });

  it("kind=refused finds a change the service itself refused (its outcome), besides the proxy's refusals", async () => {
    const form = new FormData();
    form.append("key", "secret.txt");
    form.append("file", new Blob(["no"], { type: "text/plain" }), "secret.txt");
    expect((await fetch(`${a.url}/api/v0/storage/object/vault`, { method: "POST", headers: fromApp(a.url), body: form })).status).toBe(403);
    const refused = await (await fetch(`${b.url}/api/audit?kind=refused`)).json();
    expect(refused.items[0]).toMatchObject({ action: "upload", outcome: "refused", bucket: "vault" });
    const updates = await (await fetch(`${b.url}/api/audit?kind=update&limit=500`)).json();
    expect(updates.items.every((i: { action: string }) => i.action === "update")).toBe(true);
  });

  it("a NUL or a lone surrogate half in what is recorded: written as ␀ and U+FFFD, the service's 400 answered, the chain intact; odd parameters are 400s", async () => {
    const insert = (records: unknown) =>
      fetch(`${a.url}/api/v0/record/demo/employees/insert`, { method: "POST", headers: { ...fromApp(a.url), "content-type": "application/json" }, body: JSON.stringify({ records }) });
    // It answered 503 "the activity log cannot be written": PostgreSQL cannot hold the NUL.
    const nul = await insert([{ employee_id: "NUL\u0000KEY" }]);
    expect(nul.status).toBe(400);
    expect((await nul.json()).message).toMatch(/NUL character/);
    const half = await fetch(`${a.url}/api/v0/record/demo/employees/insert`, {
      method: "POST",
      headers: { ...fromApp(a.url), "content-type": "application/json" },
      body: '{"records":[{"employee_id":"HALF-\\ud800"}]}',
    });
    expect(half.status).toBe(400);
    const items = (await (await fetch(`${b.url}/api/audit?kind=insert&limit=2`)).json()).items;
    expect(items.map((i: { keys: string[]; outcome: string }) => [i.keys, i.outcome])).toEqual([
      [["HALF-\ufffd"], "failed"],
      [["NUL\u2400KEY"], "failed"],
    ]);
    expect((await audit(["verify"])).code).toBe(0);
    for (const q of ["record=%00&table=demo/employees", "actor=a%00b", "cursor=9223372036854775807", "cursor=1e3", "cursor=12.AAA"]) {
      const r = await fetch(`${b.url}/api/audit?${q}`);
      expect(r.status, q).toBe(400);
    }
  });

  it("a read-only database: changes are refused with 503 and not made", async () => {
    const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
    await admin.connect();
    const name = new URL(db.url).pathname.slice(1);
    try {
      await admin.query(`ALTER DATABASE "${name}" SET default_transaction_read_only = on`);
      // Existing connections keep their settings: end them, so the pools reconnect read-only.
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
      const before = await (await fetch(`${a.url}/api/v0/record/demo/employees/query`, {
        method: "POST",
        headers: { ...fromApp(a.url), "content-type": "application/json" },
        body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00099" }] } }),
      })).json();
      const r = await update(a, "E00099", "Nowhere");
      expect(r.status).toBe(503);
      // Read-only; or, when the pool's connection was one of those just ended, unreachable.
      expect((await r.json()).message).toMatch(/activity log cannot be written right now \((it is read-only|its database cannot be reached)\)/);
      await admin.query(`ALTER DATABASE "${name}" SET default_transaction_read_only = off`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
      const after = await (await fetch(`${a.url}/api/v0/record/demo/employees/query`, {
        method: "POST",
        headers: { ...fromApp(a.url), "content-type": "application/json" },
        body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00099" }] } }),
      })).json();
      expect(after.items[0].city).toBe(before.items[0].city);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" SET default_transaction_read_only = off`).catch(() => {});
      await admin.end();
    }
  });

  it("a database that is not there: said in our words with what to check, exit 1 (review 51a #6)", async () => {
    const lines: string[] = [];
    const prev = process.env.BASEBOARD_DATABASE_URL;
    const url = new URL(inject("pgAdminUrl"));
    url.pathname = "/bb_no_such_database";
    process.env.BASEBOARD_DATABASE_URL = url.href;
    try {
      expect(await runAuditCommand(["verify"], (s) => lines.push(s))).toBe(1);
      expect(lines.join("\n")).toMatch(/^Cannot open the database BASEBOARD_DATABASE_URL names \(database "bb_no_such_database" does not exist\): check/);
    } finally {
      if (prev === undefined) delete process.env.BASEBOARD_DATABASE_URL;
      else process.env.BASEBOARD_DATABASE_URL = prev;
    }
  });

  it("a database holding no activity log: verify says so, exit 1, and makes none (review 50a #1)", async () => {
    const empty = await createTestDatabase(inject("pgAdminUrl"));
    const lines: string[] = [];
    const prev = process.env.BASEBOARD_DATABASE_URL;
    process.env.BASEBOARD_DATABASE_URL = empty.url;
    try {
      expect(await runAuditCommand(["verify"], (s) => lines.push(s))).toBe(1);
      expect(lines.join("\n")).toContain("There is no activity log in the database BASEBOARD_DATABASE_URL names (no bb_audit table)");
      const c = new pg.Client({ connectionString: empty.url });
      await c.connect();
      const { rows } = await c.query("SELECT to_regclass('bb_audit') IS NOT NULL AS found");
      await c.end();
      expect(rows[0].found).toBe(false);
    } finally {
      // Unset again, not set to the text "undefined" (the next test in this worker read that as a database).
      if (prev === undefined) delete process.env.BASEBOARD_DATABASE_URL;
      else process.env.BASEBOARD_DATABASE_URL = prev;
      await empty.drop();
    }
  });
});
