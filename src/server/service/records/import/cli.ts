/**
 * `npm run import -- FILE.csv --table DATABASE/TABLE [--primary-key FIELD] [--type FIELD=TYPE …]`
 * Imports into the engine DATA_DIR (or `--data-dir`) names, with a progress line on stderr.
 * The embedded engine's file is locked by a running service: stop it first, or use the HTTP
 * extension (POST /v0/record/{db}/{table}/import), which runs this same code. Recorded in the
 * activity log as an import through Baseboard is (team/audit/command-import.ts).
 */
import fs from "node:fs";
import { BEFORE_IMAGES_MAX } from "../../../../shared/record-writes";
import { HttpError } from "../../../http-error";
import { type CommandImport, recordCommandImport } from "../../../team/audit/command-import";
import { trailRefusal } from "../../../team/store/why-unwritable";
import { commandConfig, runCommand, withEngine } from "../../command";
import { migrateFromSqlite } from "../../migration/from-sqlite";
import { SqlRecordStore } from "../store";
import { importAnswer } from "./answer";
import { type ImportArgs, parseImportArgs } from "./args";
import { importCsv } from "./csv-import";
import { progressPrinter } from "./progress-line";

runCommand("Import failed", async () => {
  let args: ImportArgs;
  try {
    args = parseImportArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\nusage: npm run import -- FILE.csv --table DATABASE/TABLE [--primary-key FIELD] [--type FIELD=TYPE …]`);
    return 2;
  }
  // The file first: a missing one was blamed on the activity log, a directory crashed with a
  // stack trace and left a pending entry (review 29a #9).
  let size: number;
  try {
    const stat = fs.statSync(args.file);
    if (!stat.isFile()) {
      console.error(`${args.file} is not a file (it is a ${stat.isDirectory() ? "directory" : "special file"}): give the path of a .csv file.`);
      return 2;
    }
    size = stat.size;
    fs.accessSync(args.file, fs.constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    console.error(code === "ENOENT" ? `No such file: ${args.file}. Check the path.` : code === "EACCES" ? `${args.file} cannot be read (permission denied).` : `${args.file} cannot be read: ${(e as Error).message}`);
    return 2;
  }
  const config = commandConfig();
  return withEngine(config, async (engine) => {
    await migrateFromSqlite(config.dataDir, engine);
    const store = await SqlRecordStore.open(engine);
    const { databaseId: db, slug } = args.options;
    // Recorded before it starts: nothing is imported when the activity log cannot be written.
    let trail: CommandImport;
    try {
      trail = await recordCommandImport({ ...process.env, DATA_DIR: config.dataDir }, { db, slug, size }, async (d, t) => (await store.table(d, t))?.primaryKey);
    } catch (e) {
      console.error(`Nothing was imported: ${trailRefusal(e, { ownWords: true })}`);
      return 1;
    }
    // The import is done (or not) whatever the log says after it: said, not thrown.
    const ended = (status: number, answer: string) => trail.finish(status, answer).catch((e: Error) => console.error(`(The activity log did not take how the import ended: ${e.message})`));
    try {
      const started = performance.now();
      const tty = process.stderr.isTTY;
      const printer = progressPrinter(tty);
      const result = await importCsv(store, args.file, {
        ...args.options,
        // What it overwrites and the keys it adds, for the trail (as the proxy asks the service).
        beforeImages: BEFORE_IMAGES_MAX,
        onProgress: (p) => {
          const line = printer(p);
          if (line !== undefined) process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
        },
      });
      if (tty) process.stderr.write("\n");
      if (!result.ok) {
        const failure = HttpError.from(result.error);
        await ended(failure.status, JSON.stringify(failure.toBody()));
        console.error(`Nothing was imported: ${result.error.message}`);
        return 1;
      }
      await ended(200, importAnswer(result.value));
      const { inserted, updated, created, changed } = result.value;
      const s = ((performance.now() - started) / 1000).toFixed(1);
      // Of the Records it named that were there, how many it really changed (when counted).
      const same = changed !== undefined && changed < updated ? ` (${changed.toLocaleString("en-US")} changed, ${(updated - changed).toLocaleString("en-US")} already as the file has them)` : "";
      console.log(`${created ? "Created" : "Updated"} ${db}/${slug}: ${inserted.toLocaleString("en-US")} inserted, ${updated.toLocaleString("en-US")} updated${same} in ${s} s.`);
      // A new Table's types were read from the file: said, so that a column read as text
      // because of one odd cell is seen (a new user's check found none said).
      const table = created ? await store.table(db, slug) : undefined;
      if (table) {
        console.log(`Fields, as read from the file: ${table.fields.map((f) => `${f.key} ${f.type}${f.key === table.primaryKey ? " (primary key)" : ""}`).join(", ")}.`);
        console.log("(A column is text when any of its cells is no number, date or boolean. --type FIELD=TYPE holds one to a type: a cell that does not fit is then named by its line.)");
      }
      return 0;
    } finally {
      await trail.close();
    }
  });
});
