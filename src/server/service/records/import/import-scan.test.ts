/**
 * Issue 21 item 1: a file longer than our own pass's first rows (SAMPLE_ROWS) is checked by the
 * engine's scan and loaded by its reader into an unregistered table that the Table adopts, its
 * key index built after the load. Each way off that path is taken where it must be, and the
 * import stays all or nothing with the line of a bad cell named. Embedded engine (the only one
 * with a native CSV load), real files.
 */
import { normalizeDatetime } from "../../../../shared/values/dates";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CompiledQuery } from "kysely";
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-import-scan-"));
  engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: dir });
  store = await SqlRecordStore.open(engine);
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ROWS = SAMPLE_ROWS + 1500;
/** The line of data row `i` (0-based; the header is line 1). */
const line = (i: number) => i + 2;

/** id,n,ok,day,note with `change` applied to row i's cells. */
function file(name: string, change: (i: number, cells: string[]) => string[] = (_, c) => c, rows = ROWS): string {
  const lines = ["id,n,ok,day,note"];
  for (let i = 0; i < rows; i++) {
    lines.push(change(i, [`K${String(i).padStart(6, "0")}`, String(i * 3 - 40), i % 3 ? "true" : "FALSE", `2024-0${1 + (i % 9)}-1${i % 10}`, i % 7 ? `note ${i}` : ""]).join(","));
  }
  const f = path.join(dir, `${name}.csv`);
  fs.writeFileSync(f, `${lines.join("\n")}\n`);
  return f;
}

async function load(slug: string, f: string, options: Partial<ImportOptions> = {}) {
  return importCsv(store, f, { databaseId: "scan", slug, ...options });
}

async function loadTables(): Promise<string[]> {
  const [{ rows }] = await engine.read([engine.builder.selectFrom("information_schema.tables").select("table_name").where("table_name", "like", `${LOAD_TABLE_PREFIX}%`).compile()]);
  return rows.map(([n]) => String(n));
}

async function record(slug: string, id: string) {
  const r = await store.query((await store.table("scan", slug))!, { filter: { and: [{ key: "id", operator: "equal", value: id }] } } as never);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.items[0];
}

it("a long file is checked by the scan and loaded by the engine, types inferred as our own pass infers them", async () => {
  const r = await load("plain", file("plain"));
  expect(r).toEqual({ ok: true, value: { inserted: ROWS, updated: 0, created: true, loadedBy: "engine" } });
  const table = (await store.table("scan", "plain"))!;
  expect(table.fields.map((f) => [f.key, f.type])).toEqual([["id", "text"], ["n", "number"], ["ok", "boolean"], ["day", "date"], ["note", "text"]]);
  expect(await record("plain", "K000007")).toEqual({ id: "K000007", n: -19, ok: true, day: "2024-08-17", note: null });
  expect(await loadTables()).toEqual([]);
  // The primary key holds: a second import of a key updates it, never adds a second row.
  expect((await load("plain", file("again", undefined, 1))).ok).toBe(true);
  expect(await record("plain", "K000000")).toMatchObject({ n: -40, ok: false });
  const count = await store.query(table, {} as never);
  expect(count.ok && count.value.count).toBe(ROWS);
});

it("the same file read by our own pass alone (no scan) gives the same Table", async () => {
  const f = file("small", undefined, SAMPLE_ROWS);
  const r = await load("small", f);
  expect(r.ok && r.value.loadedBy).toBe("staging");
  expect((await store.table("scan", "small"))!.fields.map((f) => f.type)).toEqual((await store.table("scan", "plain"))!.fields.map((f) => f.type));
});

it("keys repeated past the first rows: the engine's load keeps the last line of each, in file order", async () => {
  const r = await load("repeat", file("repeat", (i, c) => {
    if (i === 300) return ["K000005", "1", "true", "2020-01-01", "second"];
    if (i === ROWS - 2) return ["K000005", "2", "false", "2020-01-02", "third"];
    if (i === ROWS - 1) return ["K001200", "777", "true", "2020-01-01", "last"];
    return c;
  }));
  expect(r).toEqual({ ok: true, value: { inserted: ROWS - 3, updated: 0, created: true, loadedBy: "engine" } });
  expect(await record("repeat", "K001200")).toEqual({ id: "K001200", n: 777, ok: true, day: "2020-01-01", note: "last" });
  expect(await record("repeat", "K000005")).toEqual({ id: "K000005", n: 2, ok: false, day: "2020-01-02", note: "third" });
  expect(await record("repeat", "K000006")).toEqual({ id: "K000006", n: -22, ok: false, day: "2024-07-16", note: "note 6" });
  const table = (await store.table("scan", "repeat"))!;
  const all = await store.query(table, {} as never);
  expect(all.ok && all.value.count).toBe(ROWS - 3);
  // The key holds afterwards: no second row for a key.
  const counted = await engine.read([CompiledQuery.raw(`select count(distinct id) from "${table.physical}"`, [])]);
  expect(Number(counted[0].rows[0][0])).toBe(ROWS - 3);
  expect(await loadTables()).toEqual([]);
});

it("a cell the scan cannot be sure of sends the file to our own pass, which decides it", async () => {
  // 16 digits: a double keeps these exactly, which only our own pass can tell.
  const r = await load("digits", file("digits", (i, c) => (i === ROWS - 10 ? [c[0], "1234567890123456", ...c.slice(2)] : c)));
  expect(r.ok && r.value.loadedBy).toBe("staging");
  expect((await store.table("scan", "digits"))!.byKey.get("n")!.type).toBe("number");
  expect((await record("digits", `K${String(ROWS - 10).padStart(6, "0")}`)).n).toBe(1234567890123456);
});

it("a column that fails a type past the first rows is inferred as the next type, by the scan", async () => {
  const r = await load("later", file("later", (i, c) => (i === ROWS - 3 ? [c[0], "n/a", ...c.slice(2)] : c)));
  expect(r.ok && r.value.loadedBy).toBe("engine");
  expect((await store.table("scan", "later"))!.byKey.get("n")!.type).toBe("text");
});

it.each([
  ["a bad cell of a given type", (i: number, c: string[]) => (i === 1800 ? [c[0], "twelve", ...c.slice(2)] : c), { types: { n: "number" } }, `line ${line(1800)}: "n" is number`],
  ["an empty primary key", (i: number, c: string[]) => (i === 2100 ? ["", ...c.slice(1)] : c), {}, `line ${line(2100)}: "id" is the primary key and cannot be empty`],
  ["a row of another width", (i: number, c: string[]) => (i === 1600 ? [...c, "extra"] : c), {}, `line ${line(1600)}: 6 values for 5 columns`],
  // Named where the quote opens (csv-parse's own line is where the file ends).
  ["a quote never closed", (i: number, c: string[]) => (i === 1700 ? [c[0], '"12', ...c.slice(2)] : c), {}, `line ${line(1700)}: the CSV is malformed: a quote (") opens a value that is never closed`],
] as const)("%s past the first rows is named by its line and nothing is imported", async (_, change, options, message) => {
  const r = await load("bad", file("bad", change), options as Partial<ImportOptions>);
  expect(r.ok).toBe(false);
  expect(!r.ok && r.error.message).toContain(message);
  expect(await store.table("scan", "bad")).toBeUndefined();
  expect(await loadTables()).toEqual([]);
});

it("a date-time column in UTC: checked by the scan and loaded by the engine, each written as our own pass writes it", async () => {
  const fractions = ["", ".5", ".12", ".123"];
  const cellOf = (i: number, day: string) => `${day}T10:0${i % 10}:${String(i % 60).padStart(2, "0")}${fractions[i % 4]}Z`;
  const r = await load("times", file("times", (i, c) => [...c.slice(0, 3), cellOf(i, c[3]), c[4]]));
  expect(r.ok && r.value.loadedBy).toBe("engine");
  expect((await store.table("scan", "times"))!.byKey.get("day")!.type).toBe("datetime");
  for (const i of [0, 1, 2, 3, 1234, ROWS - 1]) {
    const row = await record("times", `K${String(i).padStart(6, "0")}`);
    expect(row.day).toBe(normalizeDatetime(cellOf(i, `2024-0${1 + (i % 9)}-1${i % 10}`)));
  }
});

it("a date-time with another zone past the first rows: our own pass and the appender, which normalize it", async () => {
  const r = await load("zones", file("zones", (i, c) => [...c.slice(0, 3), i === ROWS - 5 ? `${c[3]}T10:00:00+02:00` : `${c[3]}T10:00:00Z`, c[4]]));
  expect(r.ok && r.value.loadedBy).toBe("appender");
  expect((await record("zones", `K${String(ROWS - 5).padStart(6, "0")}`)).day).toMatch(/T08:00:00\.000Z$/);
});

it("an existing Table is checked by the scan, then updated and added to through the staging table", async () => {
  const r = await load("plain", file("upsert", (i, c) => (i < 100 ? [c[0], "5", ...c.slice(2)] : [`N${i}`, ...c.slice(1)])));
  expect(r).toEqual({ ok: true, value: { inserted: ROWS - 100, updated: 100, created: false, loadedBy: "staging" } });
  expect((await record("plain", "K000050")).n).toBe(5);
});

it("a load table left by a process that stopped before adopting it is dropped on the next open", async () => {
  await engine.write((tx) => tx.run(engine.builder.schema.createTable(`${LOAD_TABLE_PREFIX}left`).addColumn("id", "varchar").compile()));
  expect(await loadTables()).toEqual([`${LOAD_TABLE_PREFIX}left`]);
  await SqlRecordStore.open(engine);
  expect(await loadTables()).toEqual([]);
});

it("the settings the load and the index build change for their statements are restored after", async () => {
  const settings = () => engine.read([CompiledQuery.raw("select current_setting('threads'), current_setting('preserve_insertion_order'), current_setting('enable_progress_bar')")]);
  const [{ rows: before }] = await settings();
  const r = await load("settings", file("settings"), { onProgress: () => undefined });
  expect(r.ok && r.value.loadedBy).toBe("engine");
  const [{ rows: after }] = await settings();
  expect(after).toEqual(before);
  expect(before[0]).toEqual([parseServiceConfig([], {}).duckdb.threads, true, false]);
});

it("a file that begins with a UTF-8 byte-order mark (Excel's CSV UTF-8): imported, its first column named without it, on both paths", async () => {
  const f = path.join(dir, "bom.csv");
  fs.writeFileSync(f, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("id,name\nB1,Ann\nB2,Bo\n")]));
  expect(await load("bom", f)).toMatchObject({ ok: true, value: { inserted: 2, created: true } });
  expect((await store.table("scan", "bom"))!.fields.map((x) => x.key)).toEqual(["id", "name"]);
  expect(await record("bom", "B2")).toEqual({ id: "B2", name: "Bo" });
  // Into the Table it made: an update and an insert through the staging table.
  fs.writeFileSync(f, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("id,name\nB2,Bea\nB3,Cy\n")]));
  expect(await load("bom", f)).toMatchObject({ ok: true, value: { inserted: 1, updated: 1, created: false } });
  expect(await record("bom", "B2")).toEqual({ id: "B2", name: "Bea" });
});
