/** Seeds the sample tables of decisions §2 into an empty registry (first start only), in one transaction. */
import { catalogTable, departmentsTable, employeesTable, generateCatalog, generateDepartments, generateEmployees } from "./sample-data";
import { TableExistsError } from "./registry";
import type { RecordStore } from "./store";

export const SAMPLE_EMPLOYEES = 1000;

export async function seedSampleData(store: RecordStore): Promise<boolean> {
  if ((await store.tables()).length > 0) return false;
  // Another instance starting on the same database at the same moment may seed first.
  const made = await store.engine.write(async (tx) => {
    const tables = [];
    for (const [def, rows] of [
      [employeesTable, generateEmployees(SAMPLE_EMPLOYEES)],
      [departmentsTable, generateDepartments()],
      [catalogTable, generateCatalog()],
    ] as const) {
      const table = await store.createTable(def, tx);
      tables.push(table);
      await store.insertRows(table, rows, tx);
    }
    return tables;
  }).catch((e: unknown) => {
    if (e instanceof TableExistsError) return [];
    throw e;
  });
  return made.length > 0;
}
