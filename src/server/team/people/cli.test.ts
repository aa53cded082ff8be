/**
 * `npm run people` as a user runs it: a real child process on a real store, the password on
 * standard input. Nothing it prints ever holds a password or a hash.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandArgs } from "../../service/testing/service-entry";
import { openSqliteTeamStore } from "../store/sqlite-store";
import { checkPassword } from "./passwords";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-people-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function people(args: string[], input = "") {
  const r = spawnSync(process.execPath, [...commandArgs("team/people/cli"), ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: dir, BASEBOARD_DATABASE_URL: "" },
    timeout: 30_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("npm run people", () => {
  it("adds with the password from standard input, grants, sets roles, disables, lists without secrets", async () => {
    expect(people(["add", "ada@example.com", "--role", "admin", "--name", "Ada Lovelace"], "an admin's long passphrase\n")).toMatchObject({ code: 0 });
    const weak = people(["add", "bob@example.com", "--role", "viewer"], "password1234\n");
    expect(weak.code).toBe(1);
    expect(weak.out).toMatch(/most common/);
    expect(people(["add", "bob@example.com", "--role", "boss"], "a long enough passphrase\n").out).toMatch(/role is one of viewer, editor, admin/);
    expect(people(["add", "bob@example.com", "--role", "viewer"], "").out).toMatch(/No password on standard input/);
    expect(people(["add", "bob@example.com", "--role", "viewer"], "bob's long passphrase\n").code).toBe(0);
    expect(people(["add", "bob@example.com", "--role", "viewer"], "bob's long passphrase\n").out).toMatch(/already has an account here\. To send them a link/);
    expect(people(["grant", "bob@example.com", "table:demo/employees", "editor"]).code).toBe(0);
    expect(people(["grant", "bob@example.com", "demo/employees", "editor"]).out).toMatch(/table:<database_id>\/<table_slug>/);
    expect(people(["set-role", "bob@example.com", "editor"]).code).toBe(0);
    expect(people(["disable", "bob@example.com"]).out).not.toMatch(/no enabled admin/);
    // The last admin taken away: done (this is also how one is put back), and said.
    const lastAdmin = people(["set-role", "ada@example.com", "editor"]);
    expect(lastAdmin.code).toBe(0);
    expect(lastAdmin.out).toMatch(/Warning: no enabled admin is left, so nobody can manage people in the app/);
    expect(people(["set-role", "ada@example.com", "admin"]).out).not.toMatch(/Warning/);
    expect(people(["revoke-grant", "bob@example.com", "table:demo/employees"]).code).toBe(0);
    expect(people(["reset-password", "ada@example.com"], "a brand new passphrase\n").code).toBe(0);
    const list = people(["list"]);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/ada@example.com\tAda Lovelace\tadmin/);
    expect(list.out).toMatch(/bob@example.com\tbob\teditor\tdisabled/);
    expect(list.out).not.toMatch(/argon2|passphrase/);
    const store = openSqliteTeamStore(dir);
    try {
      const ada = await store.getPerson("ada@example.com");
      expect(ada?.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await checkPassword(ada?.passwordHash, "a brand new passphrase")).toBe(true);
      expect((await store.getPerson("bob@example.com"))?.disabled).toBe(true);
    } finally {
      await store.close();
    }
    expect(people(["frobnicate"]).code).toBe(2);
  }, 120_000);

  it("each change is in the activity log, by the command, with how it ended, never a password; a list is no change", async () => {
    const { openSqliteAuditLog } = await import("../audit/sqlite-audit-log");
    const { answerAudit } = await import("../audit/audit-api");
    const log = openSqliteAuditLog(dir);
    try {
      const admin = { email: "x", name: "x", kind: "person", role: "admin", grants: [] } as never;
      const items = ((await answerAudit(log, admin, new URLSearchParams("kind=people&limit=50"))).body as { items: { actor: string; actorKind: string; keys: string[]; outcome: string; detail: Record<string, unknown>; message?: string }[] }).items;
      // Newest first: the commands above, each one entry with its outcome.
      const actions = items.map((i) => `${i.detail.action} ${i.keys[0]} ${i.outcome}`).reverse();
      expect(actions).toEqual([
        "add ada@example.com applied",
        "add bob@example.com failed",
        "add bob@example.com failed",
        "add bob@example.com failed",
        "add bob@example.com applied",
        "add bob@example.com failed",
        "grant bob@example.com applied",
        "grant bob@example.com failed",
        "set-role bob@example.com applied",
        "disable bob@example.com applied",
        "set-role ada@example.com applied",
        "set-role ada@example.com applied",
        "revoke-grant bob@example.com applied",
        "reset-password ada@example.com applied",
      ]);
      expect(items[0]).toMatchObject({ actorKind: "command", actor: expect.stringMatching(/^npm run people \(/) });
      expect(items.filter((i) => i.detail.action === "grant").at(-1)?.detail).toMatchObject({ resource: "table:demo/employees", level: "editor" });
      expect(JSON.stringify(items)).not.toMatch(/passphrase|password1234|argon2/);
    } finally {
      await log.close();
    }
  });
});
