/** Seeds the sample tables of decisions §2 into an empty registry (first start only). */
import type { Kysely } from "kysely";
import type { Sqlite } from "../db";
import { catalogTable, departmentsTable, employeesTable, generateCatalog, generateDepartments, generateEmployees } from "./sample-data";
import { insertRows, type SqliteRecordStore } from "./store";

export const SAMPLE_EMPLOYEES = 1000;

export function seedSampleData(store: SqliteRecordStore, sqlite: Sqlite, kysely: Kysely<any>): boolean {
  if (store.tables().length > 0) return false;
  sqlite.transaction(() => {
    insertRows(sqlite, kysely, store.createTable(employeesTable), generateEmployees(SAMPLE_EMPLOYEES));
    insertRows(sqlite, kysely, store.createTable(departmentsTable), generateDepartments());
    insertRows(sqlite, kysely, store.createTable(catalogTable), generateCatalog());
  })();
  return true;
}
