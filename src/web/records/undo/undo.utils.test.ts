import { describe, expect, it } from "vitest";
import { afterRedo, afterUndo, planRestore, pushEntry, readStacks, summarize, summaryText, type UndoEntry, withoutNext } from "./undo.utils";

const entry: UndoEntry = {
  id: "1",
  label: "Bulk set department",
  db: "demo",
  table: "employees",
  pkField: "employee_id",
  at: 0,
  changes: [
    { pk: "E1", field: "department", before: "Sales", after: "HR" },
    { pk: "E2", field: "department", before: "Sales", after: "HR" },
    { pk: "E3", field: "department", before: null, after: "HR" },
  ],
};

describe("planRestore", () => {
  it("undo: one update per distinct old value, filtered on PK and the value we wrote", () => {
    const steps = planRestore(entry, "undo");
    expect(steps).toEqual([
      {
        expected: 2,
        body: {
          values: [{ key: "department", value: "Sales" }],
          filter: {
            and: [
              { or: [{ key: "employee_id", operator: "equal", value: "E1" }, { key: "employee_id", operator: "equal", value: "E2" }] },
              { key: "department", operator: "equal", value: "HR" },
            ],
          },
        },
      },
      {
        expected: 1,
        body: {
          values: [{ key: "department", value: null }],
          filter: {
            and: [{ or: [{ key: "employee_id", operator: "equal", value: "E3" }] }, { key: "department", operator: "equal", value: "HR" }],
          },
        },
      },
    ]);
  });

  it("redo: expects the old values and writes ours again", () => {
    const steps = planRestore(entry, "redo");
    expect(steps.map((s) => [s.body.values[0].value, (s.body.filter as { and: unknown[] }).and[1]])).toEqual([
      ["HR", { key: "department", operator: "equal", value: "Sales" }],
      ["HR", { key: "department", operator: "equal", value: null }],
    ]);
  });
});

it("json fields: filter on primary key only, with the values to check by reading", () => {
  const e: UndoEntry = { ...entry, jsonFields: ["specs"], changes: [{ pk: "E1", field: "specs", before: { a: 1 }, after: { a: 2 } }, { pk: "E2", field: "specs", before: { a: 1 }, after: null }] };
  const steps = planRestore(e, "undo");
  expect(steps[0]).toEqual({
    expected: 1,
    body: { values: [{ key: "specs", value: { a: 1 } }], filter: { and: [{ or: [{ key: "employee_id", operator: "equal", value: "E1" }] }] } },
    check: { field: "specs", from: { a: 2 }, pks: ["E1"] },
  });
  // From null, the filter can test it (equal null), so no read is needed.
  expect(steps[1].check).toBeUndefined();
  expect(steps[1].body.filter).toEqual({ and: [{ or: [{ key: "employee_id", operator: "equal", value: "E2" }] }, { key: "specs", operator: "equal", value: null }] });
});

it("several Fields of one Record (a restored version): one update over all of them, whole or not at all", () => {
  const e: UndoEntry = { ...entry, label: "Restore E1", changes: [{ pk: "E1", field: "city", before: "Oslo", after: "Faro" }, { pk: "E1", field: "age", before: 40, after: 41 }] };
  expect(planRestore(e, "undo")).toEqual([
    {
      expected: 2,
      cellsPerRecord: 2,
      body: {
        values: [{ key: "city", value: "Oslo" }, { key: "age", value: 40 }],
        filter: { and: [{ or: [{ key: "employee_id", operator: "equal", value: "E1" }] }, { key: "city", operator: "equal", value: "Faro" }, { key: "age", operator: "equal", value: 41 }] },
      },
    },
  ]);
  expect(planRestore(e, "redo")[0].body.values).toEqual([{ key: "city", value: "Faro" }, { key: "age", value: 41 }]);
  // With a json Field among them, each Field on its own (a json value is checked by reading).
  expect(planRestore({ ...e, jsonFields: ["city"] }, "undo")).toHaveLength(2);
});

describe("summaries", () => {
  it("counts restored and changed-since cells", () => {
    const s = summarize([
      { expected: 2, matched: 1 },
      { expected: 1, matched: 1 },
    ]);
    expect(s).toEqual({ restored: 2, changedSince: 1 });
    expect(summaryText("undo", s)).toBe("Undone: restored 2 values; 1 value had changed since and was left as it is.");
    expect(summaryText("redo", { restored: 1, changedSince: 0 })).toBe("Redone: wrote again 1 value.");
  });
});

describe("stacks", () => {
  it("push clears redo; undo and redo move entries between stacks", () => {
    let s = pushEntry({ past: [], future: [entry] }, entry);
    expect(s.future).toEqual([]);
    s = afterUndo(s);
    expect([s.past.length, s.future.length]).toEqual([0, 1]);
    s = afterRedo(s);
    expect([s.past.length, s.future.length]).toEqual([1, 0]);
    expect(afterUndo({ past: [], future: [] })).toEqual({ past: [], future: [] });
  });
  it("a step refused for the role is taken off its own stack only, the others kept in order", () => {
    const a = { ...entry, id: "a" };
    const b = { ...entry, id: "b" };
    const c = { ...entry, id: "c" };
    expect(withoutNext({ past: [a, b], future: [c] }, "undo")).toEqual({ past: [a], future: [c] });
    expect(withoutNext({ past: [a], future: [c, b] }, "redo")).toEqual({ past: [a], future: [c] });
    expect(withoutNext({ past: [], future: [] }, "undo")).toEqual({ past: [], future: [] });
  });
  it("reads stored stacks defensively", () => {
    expect(readStacks("not json")).toEqual({ past: [], future: [] });
    expect(readStacks(JSON.stringify({ past: [entry, { junk: 1 }], future: "x" }))).toEqual({ past: [entry], future: [] });
  });
});
