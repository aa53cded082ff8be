/**
 * How the embedded trail's file is opened: the durability the README states holds for a new
 * trail as for one reopened (SQLite applies its build's WAL default only to a file already in
 * WAL mode when opened).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { openSqliteAuditLog, openTrailFile } from "./sqlite-audit-log";
import { retentionWaitsForChangesUnderWay } from "../testing/audit-entries";

it("a new trail and a reopened one both sync at checkpoints (synchronous NORMAL), in WAL mode", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-trail-file-"));
  const file = path.join(dir, "audit.sqlite");
  try {
    for (const when of ["new", "reopened"]) {
      const db = openTrailFile(file);
      try {
        expect({ when, synchronous: db.pragma("synchronous", { simple: true }), mode: db.pragma("journal_mode", { simple: true }) }).toEqual({ when, synchronous: 1, mode: "wal" });
        db.exec("CREATE TABLE IF NOT EXISTS t (x)");
      } finally {
        db.close();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it("retention stops before a change still under way (no outcome yet, or a job still running), and goes on once it ended", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-trail-inflight-"));
  const log = openSqliteAuditLog(dir);
  try {
    await retentionWaitsForChangesUnderWay(log);
  } finally {
    await log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
