/**
 * Searching a bucket by name (issue 22.3): a case-insensitive substring of the key at any
 * folder depth, answered from the metadata store. On an engine with secondary indexes
 * (PostgreSQL) a trigram index on the folded key (pg_trgm) serves the folded LIKE; DuckDB
 * scans its compressed key column with contains().
 */
import { sql } from "kysely";
import type { SqlEngine } from "../engines/engine";
import { OBJECTS, type ObjectRow } from "./metadata";

export interface SearchStore {
  /** Newest versions of the keys containing `q` (any case) after `after`, sorted by key. */
  search(bucket: string, q: string, after: string, limit: number): Promise<ObjectRow[]>;
}

export async function openSearchStore(engine: SqlEngine, warn: (msg: string) => void): Promise<SearchStore> {
  const b = engine.builder;
  if (engine.dialect.secondaryIndexes) {
    try {
      await engine.write(async (tx) => {
        // On the key folded as Records' text is (`foldedMatch`): the key column is COLLATE "C"
        // (code-point order, for folder ranges), under which lower() folds ASCII alone.
        for (const statement of engine.dialect.searchIndex?.(OBJECTS, "key", "_storage_objects_key_folded_trgm") ?? []) await tx.run(statement.compile(b));
        await tx.run(sql`drop index if exists _storage_objects_name_trgm`.compile(b));
      });
    } catch (e) {
      // Without the extension (no right to create it) search still works, by a scan.
      warn(`storage: no trigram index for search (${(e as Error).message.split("\n")[0]}); searching scans the keys`);
    }
  }
  return {
    async search(bucket, q, after, limit) {
      // PostgreSQL: the folded LIKE the trigram index serves. DuckDB: contains(), a literal
      // substring test it runs vectorized; LIKE with an ESCAPE clause is not rewritten to it and
      // took twice as long at a million keys.
      const one = (text: string) => (engine.dialect.secondaryIndexes ? engine.dialect.foldedMatch(sql.ref("key"), text, "contains") : sql`contains(lower(key), ${text.toLowerCase()})`);
      // Keys are bytes (decisions §7): "café" typed (composed, NFC) and one named on macOS
      // (decomposed, NFD) are two keys that look alike. The search finds either spelling
      // (review 51a #7: a typed search missed the macOS one).
      const [composed, decomposed] = [q.normalize("NFC"), q.normalize("NFD")];
      const matches = composed === decomposed ? one(q) : sql`(${one(composed)} or ${one(decomposed)})`;
      let keys = b
        .selectFrom(OBJECTS)
        .select("key")
        .distinct()
        .where("bucket", "=", bucket)
        .where(matches as any);
      if (after !== "") keys = keys.where("key", ">", after);
      const found = (await engine.read([keys.orderBy("key").limit(limit).compile()]))[0].rows.map((r) => String(r[0]));
      if (found.length === 0) return [];
      const rows = (
        await engine.read([
          b
            .selectFrom(OBJECTS)
            .select(["bucket", "key", "version", "file", "size", "content_type", "sha256", "created_at"])
            .where("bucket", "=", bucket)
            .where("key", "in", found)
            .compile(),
        ])
      )[0].rows;
      const newest = new Map<string, ObjectRow>();
      for (const r of rows) {
        const row: ObjectRow = { bucket: String(r[0]), key: String(r[1]), version: Number(r[2]), file: String(r[3]), size: Number(r[4]), contentType: String(r[5]), sha256: String(r[6]), createdAt: Number(r[7]) };
        const had = newest.get(row.key);
        if (!had || had.version < row.version) newest.set(row.key, row);
      }
      return found.flatMap((k) => newest.get(k) ?? []);
    },
  };
}
