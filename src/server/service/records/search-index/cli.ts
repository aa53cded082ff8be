/**
 * `npm run search-index -- DATABASE/TABLE FIELD [FIELD …]`: trigram indexes that make
 * `contains` on those text Fields fast on PostgreSQL (DATABASE_URL). See search-index.ts.
 */
import { commandConfig, runCommand, withEngine } from "../../command";
import { SqlRecordStore } from "../store";
import { createSearchIndexes } from "./search-index";

const USAGE = "usage: npm run search-index -- DATABASE/TABLE FIELD [FIELD …]   (PostgreSQL: DATABASE_URL)";

runCommand("Search index failed", async () => {
  const [target, ...fields] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const [databaseId, slug] = (target ?? "").split("/");
  if (!databaseId || !slug) {
    console.error(`Name the Table as DATABASE/TABLE.\n${USAGE}`);
    return 2;
  }
  return withEngine(commandConfig(), async (engine) => {
    const started = performance.now();
    const result = await createSearchIndexes(await SqlRecordStore.open(engine), databaseId, slug, fields);
    if (!result.ok) {
      console.error(`No search index was made: ${result.error.message}`);
      return 1;
    }
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`contains on ${result.value.indexed.join(", ")} of ${databaseId}/${slug} is served by a trigram index (${s} s).`);
    return 0;
  });
});
