import { describe, expect, it } from "vitest";
import type { Actor, GrantLevel, Role } from "../contract";
import { decide } from "./permissions";
import { checkTableCreation } from "./request-access";

const T = "table:demo/employees" as const;
const person = (role: Role, level?: GrantLevel): Actor => ({ kind: "person", email: "p@example.com", name: "P", role, grants: level ? [{ resource: T, level }] : [] });

// role, grant on the table, then read / write / delete allowed
const TABLE: [Role, GrantLevel | undefined, boolean, boolean, boolean][] = [
  ["viewer", undefined, true, false, false],
  ["viewer", "none", false, false, false],
  ["viewer", "viewer", true, false, false],
  ["viewer", "editor", true, true, false],
  ["editor", undefined, true, true, false],
  ["editor", "none", false, false, false],
  ["editor", "viewer", true, false, false],
  ["editor", "editor", true, true, false],
  ["admin", undefined, true, true, true],
  ["admin", "none", false, false, false],
  ["admin", "viewer", true, false, false],
  ["admin", "editor", true, true, true],
];

describe("the permission table", () => {
  it.each(TABLE)("%s with grant %s: read %s, write %s, delete %s", (role, level, read, write, del) => {
    const a = person(role, level);
    expect(decide(a, "read", T).allowed).toBe(read);
    expect(decide(a, "write", T).allowed).toBe(write);
    expect(decide(a, "delete", T).allowed).toBe(del);
    // A grant on one table says nothing of another.
    expect(decide(a, "read", "table:demo/departments").allowed).toBe(true);
  });
  it("people and the activity log are for admins only, and refusals say what the role lacks", () => {
    for (const role of ["viewer", "editor"] as const) {
      const d = decide(person(role), "manage-people");
      expect(d).toEqual({ allowed: false, message: `Managing people needs the admin role; your role is ${role}.` });
      expect(decide(person(role), "read-activity").allowed).toBe(false);
    }
    expect(decide(person("admin"), "manage-people").allowed).toBe(true);
    const w = decide(person("viewer"), "write", T);
    expect(!w.allowed && w.message).toMatch(/needs editor access; your role is viewer/);
  });
});

describe("creating a table by import", () => {
  const tables = new Set(["demo/employees"]);
  it("is the admin's; an import into a table that exists is a write as before", () => {
    expect(checkTableCreation(person("admin"), "demo/new_one", tables).allowed).toBe(true);
    for (const role of ["viewer", "editor"] as const) {
      const d = checkTableCreation(person(role, "editor"), "demo/new_one", tables);
      expect(d).toMatchObject({ allowed: false, message: expect.stringContaining(`no table demo/new_one, and creating a table by import needs the admin role; your role is ${role}`) });
      expect(checkTableCreation(person(role), "demo/employees", tables).allowed).toBe(true);
    }
  });
  it("is refused as not known yet (503) when the catalog could not be read", () => {
    expect(checkTableCreation(person("editor"), "demo/employees", undefined)).toMatchObject({ allowed: false, status: 503 });
    expect(checkTableCreation(person("admin"), "demo/employees", undefined).allowed).toBe(true);
  });
});
