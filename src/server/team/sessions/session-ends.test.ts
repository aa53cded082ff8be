/** Why a session ended is kept, on the embedded team store (session-ends-contract.ts). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteTeamStore } from "../store/sqlite-store";
import { checkSessionEnds } from "../testing/session-ends-contract";
import { sessionEndText } from "./session-end-text";
import type { SessionEndReason } from "../store/team-store";

describe("why a session ended", () => {
  it("is kept for each way a session ends, on the embedded store", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-session-ends-"));
    const store = openSqliteTeamStore(dir);
    try {
      expect(await store.addPerson({ email: "val@example.com", name: "Val", role: "editor", passwordHash: "x", sso: false }, Date.now())).toBe(true);
      await checkSessionEnds(store, "val@example.com");
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("is said in words, with when, and what to do where there is something to do", () => {
    const at = Date.parse("2026-11-27T20:15:42Z");
    const said = (reason: SessionEndReason) => sessionEndText({ reason, at });
    const reasons: SessionEndReason[] = ["signed-out", "signed-out-everywhere", "ended-by-self", "ended-by-admin", "password-reset", "password-set", "disabled", "access-changed", "idle", "expired"];
    for (const r of reasons) expect(said(r)).toMatch(/^Your session ended: .* 2026-11-27 20:15 UTC/);
    expect(new Set(reasons.map(said)).size).toBe(reasons.length);
    expect(said("password-reset")).toContain("Ask them for the link to set a new one.");
    expect(said("disabled")).toContain("Ask an admin to enable it again.");
    expect(said("idle")).toContain("not used for 12 hours");
    expect(said("expired")).toContain("at most 7 days");
  });
});
