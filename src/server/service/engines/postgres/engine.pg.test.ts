/**
 * The PostgreSQL engine on a real server: code-point order and Unicode case folding from the
 * dialect, one snapshot per multi-statement read, writes serialized across engines (processes)
 * on one database, bulk append all-or-nothing, and database errors classified (never raw).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngineError, type SqlEngine } from "../engine";
import { parsePostgresOptions } from "./connection";
import { openPostgresEngine } from "./engine";
import { startScratchCluster } from "./scratch-cluster";
import { engineForTest, type EngineForTest } from "./testing/test-engine";

let db: EngineForTest;
let a: SqlEngine;
let b: SqlEngine;

beforeAll(async () => {
  db = await engineForTest();
  a = await openPostgresEngine(parsePostgresOptions(db.databaseUrl!, {}));
  b = await openPostgresEngine(parsePostgresOptions(db.databaseUrl!, {}));
  const t = a.builder;
  await a.write(async (tx) => {
    let create = t.schema.createTable("words").addColumn("id", "integer", (c) => c.primaryKey()).addColumn("w", a.dialect.columnType("text"));
    create = create.addColumn("n", a.dialect.columnType("number")).addColumn("flag", a.dialect.columnType("boolean"));
    await tx.run(create.compile());
    // The last four hold LIKE's wildcards and escape, which contains must match literally.
    const words = ["b", "B", "a", "Z", "é", "É", "ß", "z", "ÄRGER", "äpfel", "😀", "İstanbul", "50% off", "a_b", "axb", "c:\\dir"];
    await tx.run(t.insertInto("words").values(words.map((w, i) => ({ id: i, w, n: i / 2, flag: i % 2 === 0 }))).compile());
  });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.release();
});

describe("PostgreSQL engine", () => {
  it("orders text by code point, whatever the database locale", async () => {
    const [res] = await a.read([a.builder.selectFrom("words").select("w").orderBy("w").compile()]);
    const got = res.rows.map((r) => r[0] as string);
    const byCodePoint = [...got].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(got).toEqual(byCodePoint);
  });

  it("folds case by Unicode rules on both sides of contains, like String.prototype.toLowerCase", async () => {
    for (const needle of ["ärg", "ÄPF", "É", "e", "ISTAN", "😀", "%", "_", "\\", "a_b", "50%"]) {
      const q = a.builder
        .selectFrom("words")
        .select("w")
        .where(a.dialect.foldedMatch(sql.ref("w"), needle, "contains"))
        .orderBy("id")
        .compile();
      const [res] = await a.read([q]);
      const all = (await a.read([a.builder.selectFrom("words").select("w").orderBy("id").compile()]))[0].rows.map((r) => r[0] as string);
      expect(res.rows.map((r) => r[0]), needle).toEqual(all.filter((w) => w.toLowerCase().includes(needle.toLowerCase())));
    }
  });

  it("returns numbers, booleans and counts as JS values", async () => {
    const [res] = await a.read([a.builder.selectFrom("words").select([sql`count(*)`.as("c"), sql`sum(n)`.as("s"), sql`bool_or(flag)`.as("f")]).compile()]);
    expect(res.rows[0]).toEqual([16, 60, true]);
  });

  it("serializes writes across engines: a read-then-write from two at once never collides", async () => {
    const t = a.builder;
    await a.write((tx) => tx.run(t.schema.createTable("seq").addColumn("v", "integer", (c) => c.primaryKey()).compile()));
    const next = (e: SqlEngine) =>
      e.write(async (tx) => {
        const { rows } = await tx.run(t.selectFrom("seq").select(sql<number>`coalesce(max(v), 0)`.as("m")).compile());
        await new Promise((r) => setTimeout(r, 2));
        await tx.run(t.insertInto("seq").values({ v: Number(rows[0][0]) + 1 }).compile());
      });
    await Promise.all(Array.from({ length: 40 }, (_, i) => next(i % 2 ? a : b)));
    const [res] = await b.read([t.selectFrom("seq").select(sql`count(*)`.as("c")).compile()]);
    expect(res.rows[0][0]).toBe(40);
  });

  it("rolls back a write that fails and classifies the failure", async () => {
    const t = a.builder;
    const err = await a
      .write(async (tx) => {
        await tx.run(t.updateTable("words").set({ w: "changed" }).where("id", "=", 1).compile());
        await tx.run(t.updateTable("words").set({ id: 2 }).where("id", "=", 3).compile());
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).kind).toBe("unique");
    expect((err as EngineError).message).not.toMatch(/update|words|duplicate/i);
    const [res] = await a.read([t.selectFrom("words").select("w").where("id", "=", 1).compile()]);
    expect(res.rows[0][0]).toBe("B");
    const nn = await a.write((tx) => tx.run(t.insertInto("words").values({ id: null }).compile())).catch((e: unknown) => e);
    expect((nn as EngineError).kind).toBe("notNull");
  });

  it("appends in batches inside the transaction: all rows, or none when the write fails", async () => {
    const t = a.builder;
    await a.write((tx) =>
      tx.run(t.schema.createTable("bulk").addColumn("k", a.dialect.columnType("text"), (c) => c.primaryKey()).addColumn("x", a.dialect.columnType("number")).addColumn("ok", a.dialect.columnType("boolean")).compile()),
    );
    async function* rows(n: number, dupAt?: number) {
      for (let start = 0; start < n; start += 3000) {
        yield Array.from({ length: Math.min(3000, n - start) }, (_, i) => [`k${start + i === dupAt ? 0 : start + i}`, start + i === 7 ? null : (start + i) * 1.5, (start + i) % 3 === 0]);
      }
    }
    const failed = await a.write((tx) => tx.append("bulk", ["k", "x", "ok"], rows(12_000, 11_000))).catch((e: unknown) => e);
    expect((failed as EngineError).kind).toBe("unique");
    expect((await a.read([t.selectFrom("bulk").select(sql`count(*)`.as("c")).compile()]))[0].rows[0][0]).toBe(0);
    expect(await a.write((tx) => tx.append("bulk", ["x", "ok", "k"].map((c) => c), reorder(rows(12_000))))).toBe(12_000);
    const [res] = await a.read([t.selectFrom("bulk").select(["k", "x", "ok"]).where("k", "in", ["k7", "k9"]).orderBy("k").compile()]);
    expect(res.rows).toEqual([["k7", null, false], ["k9", 13.5, true]]);
  });
});

/** The same rows with columns in another order than the table's. */
async function* reorder(src: AsyncIterable<unknown[][]>) {
  for await (const batch of src) yield batch.map(([k, x, ok]) => [x, ok, k]);
}

describe("an unreachable PostgreSQL", () => {
  it("is 'unavailable', both at start and when the server goes away", async () => {
    const cluster = await startScratchCluster({ port: 55499 });
    const e = await openPostgresEngine(parsePostgresOptions(cluster.adminUrl, { DATABASE_CONNECT_TIMEOUT_MS: "2000" }));
    try {
      expect((await e.read([e.builder.selectNoFrom(sql`1`.as("one")).compile()]))[0].rows).toEqual([[1]]);
      await cluster.stop();
      for (const attempt of [() => e.read([e.builder.selectNoFrom(sql`1`.as("one")).compile()]), () => e.write(async () => 1)]) {
        const err = await attempt().catch((x: unknown) => x);
        expect(err).toBeInstanceOf(EngineError);
        expect((err as EngineError).kind).toBe("unavailable");
      }
    } finally {
      await e.close();
      await cluster.stop();
    }
    const refused = await openPostgresEngine(parsePostgresOptions(cluster.adminUrl, {})).catch((x: unknown) => x);
    expect((refused as EngineError).kind).toBe("unavailable");
  });
});
