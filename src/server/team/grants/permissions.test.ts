import { describe, expect, it } from "vitest";
import type { Actor, GrantLevel, Role } from "../contract";
import { decide } from "./permissions";

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
