/**
 * Issue 21 item 1: a large import into an existing Table is rebuilt beside it and swapped in
 * (rebuild.ts), not updated in place. The same files imported both ways into two identical
 * Tables must leave the same Records, counts, before-images and added keys; the rebuilt Table
 * keeps its primary key; nothing of the load is left. Embedded engine (the path is DuckDB's),
 * real files; `rebuildFrom` brings the path down to files of a few thousand rows.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseServiceConfig } from "../../config";
import type { SqlEngine } from "../../engines/engine";
import { openEngine } from "../../engines/open";
import { LOAD_TABLE_PREFIX } from "../registry";
import { SqlRecordStore } from "../store";
import { type ImportOptions, importCsv, SAMPLE_ROWS } from "./csv-import";

let dir: string;
let engine: SqlEngine;
let store: SqlRecordStore;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-import-rebuild-"));
  engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: dir });
  store = await SqlRecordStore.open(engine);
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Long enough for the engine's scan (past our own pass's first rows). */
const BASE = SAMPLE_ROWS + 2000;
const key = (i: number) => `K${String(i).padStart(6, "0")}`;

function csv(name: string, header: string, rows: string[]): string {
  const f = path.join(dir, `${name}.csv`);
  fs.writeFileSync(f, `${[header, ...rows].join("\n")}\n`);
  return f;
}

/** Keys 0 … BASE-1, with every Field. */
const base = () => csv("base", "id,n,ok,day,note", Array.from({ length: BASE }, (_, i) => [key(i), i, i % 2 ? "true" : "false", `2024-01-${String(1 + (i % 28)).padStart(2, "0")}`, `was ${i}`].join(",")));

/**
 * Keys from BASE/2 on (half of them in the Table, the rest new), naming only id, n and note (ok
 * and day keep their values); `repeat` lines appended again later in the file with other values.
 */
function update(name: string, repeat: number[] = []): { file: string; rows: number } {
  const rows: string[] = [];
  for (let i = BASE / 2; i < BASE + BASE / 2; i++) rows.push([key(i), i * 10, i % 5 ? `now ${i}` : ""].join(","));
  for (const [j, i] of repeat.entries()) rows.push([key(i), -j - 1, `again ${j}`].join(","));
  return { file: csv(name, "id,n,note", rows), rows: rows.length };
}

async function imported(slug: string, f: string, options: Partial<ImportOptions> = {}) {
  const r = await importCsv(store, f, { databaseId: "rebuild", slug, beforeImages: 100_000, ...options });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

async function everything(slug: string) {
  const table = (await store.table("rebuild", slug))!;
  const r = await store.query(table, { sort: [{ key: "id", direction: "ascending" }], limit: 10_000 } as never);
  if (!r.ok) throw new Error(r.error.message);
  return { items: r.value.items, count: r.value.count };
}

async function loadTables(): Promise<string[]> {
  const [{ rows }] = await engine.read([engine.builder.selectFrom("information_schema.tables").select("table_name").where("table_name", "like", `${LOAD_TABLE_PREFIX}%`).compile()]);
  return rows.map(([n]) => String(n));
}

/** Before-images as a set (their order is the engine's). */
const imagesOf = (before: { fields: string[]; rowsJson: string } | undefined) => ({ fields: before?.fields, rows: (JSON.parse(before?.rowsJson ?? "[]") as unknown[][]).map((r) => JSON.stringify(r)).sort() });

for (const [name, repeat] of [
  ["distinct keys", []],
  ["keys the file repeats (the last line wins)", [BASE / 2 + 3, BASE + 7, BASE / 2 + 3, BASE / 2 + 3]],
] as [string, number[]][]) {
  it(`rebuilt and updated in place give the same Table, counts and trail: ${name}`, async () => {
    const slug = name.startsWith("distinct") ? "a" : "b";
    for (const s of [`${slug}-inplace`, `${slug}-rebuilt`]) expect((await imported(s, base())).created).toBe(true);
    // A read before the import: its prepared statements must still serve after the swap.
    expect((await everything(`${slug}-rebuilt`)).count).toBe(BASE);
    const { file, rows } = update(`update-${slug}`, repeat);
    const inPlace = await imported(`${slug}-inplace`, file);
    const rebuilt = await imported(`${slug}-rebuilt`, file, { rebuildFrom: rows });
    expect(inPlace.loadedBy).toBe("staging");
    expect(rebuilt.loadedBy).toBe("engine");
    expect({ inserted: rebuilt.inserted, updated: rebuilt.updated }).toEqual({ inserted: BASE / 2, updated: BASE / 2 });
    expect({ inserted: rebuilt.inserted, updated: rebuilt.updated }).toEqual({ inserted: inPlace.inserted, updated: inPlace.updated });
    expect(imagesOf(rebuilt.before)).toEqual(imagesOf(inPlace.before));
    expect(imagesOf(rebuilt.before).rows).toHaveLength(BASE / 2);
    expect([...(rebuilt.added ?? [])].sort()).toEqual([...(inPlace.added ?? [])].sort());
    expect(rebuilt.added).toHaveLength(BASE / 2);
    const [a, b] = [await everything(`${slug}-inplace`), await everything(`${slug}-rebuilt`)];
    expect(b.count).toBe(BASE + BASE / 2);
    expect(b).toEqual(a);
    // The Fields the file left out kept their values; the ones it named took the file's.
    expect(b.items.find((r) => r.id === key(BASE / 2 + 1))).toEqual({ id: key(BASE / 2 + 1), n: (BASE / 2 + 1) * 10, ok: true, day: "2024-01-18", note: `now ${BASE / 2 + 1}` });
    if (repeat.length) expect(b.items.find((r) => r.id === key(BASE / 2 + 3))).toMatchObject({ n: -4, note: "again 3" });
    expect(await loadTables()).toEqual([]);
  });
}

it("the rebuilt Table keeps its primary key: a repeated key is refused, a key is found by its index", async () => {
  await imported("keyed", base());
  const { file, rows } = update("update-keyed");
  await imported("keyed", file, { rebuildFrom: rows });
  const table = (await store.table("rebuild", "keyed"))!;
  await expect(store.insertRows(table, [{ id: key(5), n: 1 }])).rejects.toThrow();
  const [{ rows: plan }] = await engine.read([engine.builder.selectFrom("duckdb_indexes").select(["index_name", "is_unique"]).where("table_name", "=", table.physical).compile()]);
  expect(plan).toEqual([[`bb_pk_${table.physical}`, true]]);
  const found = await store.query(table, { filter: { and: [{ key: "id", operator: "equal", value: key(BASE + 9) }] } } as never);
  expect(found.ok && found.value.items).toEqual([{ id: key(BASE + 9), n: (BASE + 9) * 10, ok: null, day: null, note: `now ${BASE + 9}` }]);
});

it("without the trail asking, the rebuild reads no before-images and no added keys", async () => {
  await imported("quiet", base(), { beforeImages: undefined });
  const { file, rows } = update("update-quiet");
  const r = await imported("quiet", file, { rebuildFrom: rows, beforeImages: undefined });
  expect(r).toEqual({ inserted: BASE / 2, updated: BASE / 2, created: false, loadedBy: "engine", before: undefined, added: undefined });
});
