/** Entries for tests of the trail's stores: an update of demo/employees by ada, unless told otherwise. */
import type { NewAuditEntry } from "../audit/audit-entry";

export const EMPLOYEES = "table:demo/employees";

export const newEntry = (e: Partial<NewAuditEntry>): NewAuditEntry => ({
  at: Date.now(),
  actorEmail: "ada@example.com",
  actorKind: "person",
  address: "127.0.0.1",
  kind: "update",
  endpoint: "POST /v0/record/demo/employees/update",
  resource: EMPLOYEES,
  keys: [],
  detail: {},
  ...e,
});
