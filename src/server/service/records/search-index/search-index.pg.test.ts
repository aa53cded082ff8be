/**
 * Issue 21 item 4: on PostgreSQL, `npm run search-index` makes a pg_trgm index that the
 * planner uses for `contains`, `notContains` and `startsWith` on the Field, with the same
 * answers as without it (LIKE's own wildcards in the needle matched literally); bad requests
 * are refused saying why. Real server (the scratch cluster).
 */
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SqlEngine } from "../../engines/engine";
import { parsePostgresOptions } from "../../engines/postgres/connection";
import { openPostgresEngine } from "../../engines/postgres/engine";
import { engineForTest, type EngineForTest } from "../../engines/postgres/testing/test-engine";
import { ReadCompiler } from "../compile-read";
import type { StoredTable } from "../registry";
import { SqlRecordStore } from "../store";
import { createSearchIndexes, searchIndexName } from "./search-index";

let db: EngineForTest;
let engine: SqlEngine;
let store: SqlRecordStore;
let table: StoredTable;
const names: string[] = [];

beforeAll(async () => {
  db = await engineForTest();
  engine = await openPostgresEngine(parsePostgresOptions(db.databaseUrl!, {}));
  store = await SqlRecordStore.open(engine);
  table = await store.createTable({
    databaseId: "demo",
    slug: "people",
    primaryKey: "id",
    fields: [{ key: "id", type: "text", nullable: false }, { key: "name", type: "text", nullable: true }, { key: "n", type: "number", nullable: true }],
  });
  const parts = ["Anders", "Müller", "50% off", "a_b", "axb", "c:\\dir", "ÄRGER", "son", "Jackson", "İstanbul"];
  for (let i = 0; i < 3000; i++) names.push(i % 17 === 0 ? "" : `${parts[i % parts.length]} ${parts[(i * 7) % parts.length]} ${i}`);
  await store.insertRows(table, names.map((name, i) => ({ id: `P${i}`, name: name || null, n: i })));
});
afterAll(async () => {
  await engine.close();
  await db.release();
});

const body = (operator: string, value: string) => ({ filter: { and: [{ key: "name", operator, value }] }, select: ["id"], limit: 5000 });

async function ids(operator: string, value: string): Promise<string[]> {
  const r = await store.query(table, body(operator, value) as never);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.items.map((x) => String(x.id)).sort();
}

function expected(operator: string, value: string): string[] {
  const v = value.toLowerCase();
  return names
    .map((name, i) => ({ id: `P${i}`, name: name.toLowerCase() }))
    .filter(({ name }) => (operator === "contains" ? name !== "" && name.includes(v) : operator === "startsWith" ? name !== "" && name.startsWith(v) : name === "" || !name.includes(v)))
    .map((x) => x.id)
    .sort();
}

const NEEDLES: [string, string][] = [["contains", "son"], ["contains", "%"], ["contains", "_"], ["contains", "\\"], ["contains", "MÜLL"], ["contains", "i̇stan"], ["notContains", "a_b"], ["startsWith", "50%"], ["contains", ""]];

it("the index is used, and contains answers as it did without it", async () => {
  const before = await Promise.all(NEEDLES.map(([op, v]) => ids(op, v)));
  NEEDLES.forEach(([op, v], i) => expect(before[i], `${op} ${v}`).toEqual(expected(op, v)));
  const made = await createSearchIndexes(store, "demo", "people", ["name"]);
  expect(made).toEqual({ ok: true, value: { indexed: ["name"] } });
  // Made again: nothing changes (the CLI may be run twice).
  expect((await createSearchIndexes(store, "demo", "people", ["name"])).ok).toBe(true);
  const after = await Promise.all(NEEDLES.map(([op, v]) => ids(op, v)));
  expect(after).toEqual(before);

  const compiler = new ReadCompiler({ dialect: engine.dialect, builder: engine.builder, lookup: () => undefined });
  const read = compiler.compileRead(table, body("contains", "jacks") as never);
  if (!read.ok) throw new Error(read.error.message);
  const [, plan] = await engine.read([CompiledQuery.raw("set local enable_seqscan = off"), CompiledQuery.raw(`explain ${read.value.count.sql}`, [...read.value.count.parameters])]);
  expect(plan.rows.map((r) => r[0]).join("\n")).toContain(searchIndexName(table.physical, "name"));
});

it("refuses a Field that is not text, one that does not exist, and a Table that does not exist", async () => {
  expect(await createSearchIndexes(store, "demo", "people", ["n"])).toMatchObject({ ok: false, error: { message: '"n" is number; a search index is for text Fields.' } });
  expect(await createSearchIndexes(store, "demo", "people", ["nope"])).toMatchObject({ ok: false, error: { message: expect.stringContaining('"nope" is not a Field of demo/people') } });
  expect(await createSearchIndexes(store, "demo", "ghost", ["name"])).toMatchObject({ ok: false, error: { message: "There is no Table demo/ghost." } });
});
