/**
 * Moves a data directory's embedded database into PostgreSQL (`npm run copy-to-postgres`):
 * every Table (registry entry, Records) and the storage metadata (object versions, state) are
 * read from one engine and written to another through the seam, in one transaction on the
 * target (all or nothing). Stored files stay where they are, in DATA_DIR/storage: the
 * instances on PostgreSQL keep using that directory. Engine-neutral; the target must be empty.
 */
import type { CompiledQuery } from "kysely";
import type { SqlEngine, SqlTx } from "../engines/engine";
import { TableRegistry, type StoredTable } from "../records/registry";
import { createMetadataTables, OBJECTS, STATE } from "../storage/metadata";

const PAGE = 20_000;

export interface CopyReport {
  tables: number;
  records: number;
  objects: number;
}

/** All rows of a table in pages, by primary key (keyset: each page one short read). */
async function* pages(source: SqlEngine, table: StoredTable, columns: string[]): AsyncIterable<unknown[][]> {
  const b = source.builder;
  const pkAt = columns.indexOf(table.primaryKey);
  let last: unknown;
  for (;;) {
    let q = b.selectFrom(table.physical).select(columns).orderBy(table.primaryKey).limit(PAGE);
    if (last !== undefined) q = q.where(table.primaryKey, ">", last);
    const [{ rows }] = await source.read([q.compile()]);
    if (rows.length) yield rows;
    if (rows.length < PAGE) return;
    last = rows[rows.length - 1][pkAt];
  }
}

async function* all(source: SqlEngine, query: CompiledQuery): AsyncIterable<unknown[][]> {
  yield (await source.read([query]))[0].rows;
}

export async function copyEngine(source: SqlEngine, target: SqlEngine, onTable?: (t: StoredTable, records: number) => void): Promise<CopyReport> {
  const from = await TableRegistry.open(source);
  await createMetadataTables(source);
  const to = await TableRegistry.open(target);
  await createMetadataTables(target);
  const objectCount = async (e: SqlEngine) => Number((await e.read([e.builder.selectFrom(OBJECTS).select((eb) => eb.fn.countAll().as("n")).compile()]))[0].rows[0][0]);
  if (to.list().length > 0 || (await objectCount(target)) > 0) {
    throw new Error("The target database already holds Tables or stored objects: copy into an empty database.");
  }
  const report: CopyReport = { tables: 0, records: 0, objects: 0 };
  const made: StoredTable[] = [];
  try {
    await target.write(async (tx: SqlTx) => {
      for (const table of from.list().sort((x, y) => x.id - y.id)) {
        const { databaseId, slug, primaryKey, fields, indexes } = table;
        const copy = await to.create({ databaseId, slug, primaryKey, fields, indexes }, tx);
        made.push(copy);
        const columns = fields.map((f) => f.key);
        const n = await tx.append(copy.physical, columns, pages(source, table, columns));
        onTable?.(table, n);
        report.records += n;
        report.tables++;
      }
      const cols = ["bucket", "key", "version", "file", "size", "content_type", "sha256", "created_at"];
      report.objects = await tx.append(OBJECTS, cols, all(source, source.builder.selectFrom(OBJECTS).select(cols).compile()));
      await tx.append(STATE, ["name", "value"], all(source, source.builder.selectFrom(STATE).select(["name", "value"]).compile()));
    });
  } catch (e) {
    for (const t of made) to.forget(t);
    throw e;
  }
  return report;
}
