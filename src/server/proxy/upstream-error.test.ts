import { describe, expect, it } from "vitest";
import { namesInternals, shapedUpstreamError } from "./upstream-error";

describe("an upstream's error message that names its internals (review 56a #2)", () => {
  it("is told from one that says what to fix", () => {
    for (const m of [
      'syntax error at or near "SELECT" in SELECT secret FROM tenant_9 WHERE x',
      "could not open /var/lib/hosted/tenant9/data.db",
      "Error: bad\n    at Object.<anonymous> (/srv/app/index.js:10:5)",
      'relation "tenant_9.rt_1" does not exist',
      'File "app.py", line 4: Traceback',
      "failed in handler.go:88",
      "C:\\data\\db.sqlite is locked",
      'duplicate key value violates unique constraint "employees_pkey" DETAIL: Key (employee_id)=(E1) already exists.',
      'Binder Error: Referenced column "x" not found in FROM clause!',
      "SQLITE_BUSY: database is locked",
    ])
      expect(namesInternals(m), m).toBe(true);
    for (const m of [
      'Field "city" is not a Field of demo/employees.',
      "No file docs/a.txt in bucket team-files.",
      "Send POST /v0/record/demo/employees/query instead.",
      "Changed by ada@example.com at 2026-11-25T10:42:00Z; reload.",
      "w must be a whole number from 1 to 4096, not 5000.",
      "The signature has expired (at 10:42:07).",
    ])
      expect(namesInternals(m), m).toBe(false);
  });
  it("keeps a clean message in the shape's code for its status", () => {
    expect(shapedUpstreamError(409, Buffer.from(JSON.stringify({ error: "conflict", subCode: 5, message: "E1 exists.", extra: 1 })), "The service")).toEqual({ status: 409, body: { error: "conflict", subCode: 5, message: "E1 exists." } });
  });
});
