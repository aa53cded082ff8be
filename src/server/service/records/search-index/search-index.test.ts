/**
 * On the embedded engine there is no search index to make (DuckDB answers contains by scanning
 * its columns): the command says so and changes nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { parseServiceConfig } from "../../config";
import { openEngine } from "../../engines/open";
import { seedSampleData } from "../seed";
import { SqlRecordStore } from "../store";
import { createSearchIndexes } from "./search-index";

it("DuckDB: refused, saying contains is answered by a scan", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-search-index-"));
  const engine = await openEngine(parseServiceConfig([], { DATA_DIR: dir }));
  try {
    const store = await SqlRecordStore.open(engine);
    await seedSampleData(store);
    const r = await createSearchIndexes(store, "demo", "employees", ["full_name"]);
    expect(r).toMatchObject({ ok: false, error: { code: "validation_error", message: expect.stringContaining("answers contains by scanning its columns") } });
  } finally {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
