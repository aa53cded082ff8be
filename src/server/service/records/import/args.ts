/** The command line of `npm run import` (pure). */
import { fieldTypes, type FieldType } from "../../../../shared/records";
import type { ImportOptions } from "./csv-import";

export interface ImportArgs {
  file: string;
  options: ImportOptions;
}

/** Parses the command line (pure); throws an Error whose message is the usage problem. */
export function parseImportArgs(argv: string[]): ImportArgs {
  let file: string | undefined;
  let table: string | undefined;
  let primaryKey: string | undefined;
  const types: Record<string, FieldType> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--table") table = value();
    else if (a === "--primary-key") primaryKey = value();
    else if (a === "--type") {
      const [field, type] = value().split("=");
      if (!field || !(fieldTypes as readonly string[]).includes(type)) throw new Error(`--type FIELD=TYPE with TYPE one of ${fieldTypes.join(", ")}`);
      types[field] = type as FieldType;
    } else if (a === "--data-dir") i++;
    else if (a.startsWith("--")) throw new Error(`unknown option ${a}`);
    else if (file === undefined) file = a;
    else throw new Error(`one file at a time (got ${file} and ${a})`);
  }
  if (!file) throw new Error("name the CSV file");
  const m = /^([^/]+)\/([^/]+)$/.exec(table ?? "");
  if (!m) throw new Error("--table DATABASE/TABLE is required");
  return { file, options: { databaseId: m[1], slug: m[2], primaryKey, types } };
}
