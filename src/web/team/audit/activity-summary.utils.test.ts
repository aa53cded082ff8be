import { describe, expect, it } from "vitest";
import { activitySummary, askedRecord, readableEndpoint, restoredText, triedTo, versionText } from "./activity-summary.utils";

const people = (detail: Record<string, unknown>, email = "bob@example.com") => activitySummary({ action: "people", keys: [email], detail, endpoint: "PATCH /api/people/bob%40example.com" });
const job = (detail: Record<string, unknown>, endpoint = "POST /api/v0/storage/jobs/team-files") => activitySummary({ action: "storage-job", keys: [], detail, endpoint });

describe("activity summaries", () => {
  it("says what a change to a person did, as the trail recorded it", () => {
    expect(people({ action: "update", disabled: true })).toBe("Disabled bob@example.com");
    expect(people({ action: "update", disabled: false })).toBe("Enabled bob@example.com");
    expect(people({ action: "update", role: "editor" })).toBe("Set bob@example.com's role to editor");
    expect(people({ action: "update", name: "Bob B" })).toBe('Renamed bob@example.com to "Bob B"');
    expect(people({ action: "grant", resource: "bucket:team-files", level: "editor" })).toBe("Set bucket team-files to editor for bob@example.com");
    expect(people({ action: "grant", resource: "table:demo/catalog", level: "none" })).toBe("Set table demo/catalog to no access for bob@example.com");
    expect(people({ action: "revoke-grant", resource: "table:demo/catalog" })).toBe("Removed bob@example.com's grant on table demo/catalog (back to their role)");
    expect(people({ action: "end-sessions" })).toBe("Ended bob@example.com's sessions");
    expect(people({ action: "end-session", session: "abcd" })).toBe("Ended one of bob@example.com's sessions");
    expect(people({ action: "add", email: "bob@example.com", name: "Bob", role: "viewer" })).toBe("Added bob@example.com as viewer");
    expect(people({ action: "invite" })).toBe("Made a new invite link for bob@example.com");
    // From `npm run people`.
    expect(people({ action: "disable", disabled: true })).toBe("Disabled bob@example.com");
    expect(people({ action: "set-role", role: "admin" })).toBe("Set bob@example.com's role to admin");
    expect(people({ action: "reset-password", invite: true })).toBe("Reset bob@example.com's password, with an invite link");
    expect(people({ action: "refused", method: "PATCH", path: "/api/people/bob%40example.com" })).toBe("Tried to change bob@example.com (PATCH /api/people/bob@example.com)");
  });

  it("names the top level as a job's destination", () => {
    expect(job({ action: "move", from: "limit/", to: "", files: ["limit/a", "limit/b"] })).toBe("Moved the folder limit/ → the top level (2 files)");
  });
  it("says what a storage job moved, copied or deleted, from where to where", () => {
    expect(job({ action: "move", from: "bob/bob.txt", to: "bob/bob2.txt" })).toBe("Moved bob/bob.txt → bob/bob2.txt");
    expect(job({ action: "copy", from: "bob/", to: "archive/bob/", files: ["bob/a.txt", "bob/b.txt"] })).toBe("Copied the folder bob/ → archive/bob/ (2 files)");
    expect(job({ action: "delete", from: "old/", to: "", files: ["old/a.txt"], filesMore: true })).toBe("Deleted the folder old/ (1+ files)");
    expect(job({}, "DELETE /api/v0/storage/jobs/team-files/j1")).toBe("Cancelled a storage job");
  });
  it("says how many files a move replaced", () => {
    expect(job({ action: "move", from: "a.txt", to: "b.txt", overwrite: true, replaced: [{ key: "b.txt" }] })).toBe("Moved a.txt → b.txt, replacing 1 file");
    expect(job({ action: "move", from: "x/", to: "", files: ["x/a"], replaced: [{ key: "a" }, { key: "b" }], replacedMore: true })).toBe("Moved the folder x/ → the top level (1 file), replacing 2+ files");
  });

  it("leaves other kinds to their table and diff, and decodes endpoints", () => {
    expect(activitySummary({ action: "update", keys: ["E1"], detail: undefined, endpoint: "POST /api/v0/record/demo/employees/update" })).toBeUndefined();
    expect(readableEndpoint("DELETE /api/people/bob%40example.com/sessions")).toBe("DELETE /api/people/bob@example.com/sessions");
    expect(readableEndpoint("GET /%E0%A4%A")).toBe("GET /%E0%A4%A");
  });
});

describe("entries that did not happen, and entries that name no Record", () => {
  it("says a refused or failed change was tried, not done", () => {
    const add = { action: "people", keys: ["ada@example.com"], detail: { action: "add", email: "ada@example.com", role: "viewer" }, endpoint: "POST /api/people" };
    expect(activitySummary({ ...add, outcome: "failed" })).toBe("Tried to add ada@example.com as viewer");
    expect(activitySummary({ ...add, outcome: "refused" })).toBe("Tried to add ada@example.com as viewer");
    expect(activitySummary({ ...add, outcome: "applied" })).toBe("Added ada@example.com as viewer");
    // An update or upload that failed, and an update that matched nothing (a conflict), were
    // "Updated Records" (review 47b #2).
    const update = { action: "update", keys: [], detail: undefined, endpoint: "POST /api/v0/record/demo/employees/update" };
    expect(activitySummary({ ...update, outcome: "failed" })).toBe("Tried to update Records");
    expect(activitySummary({ ...update, outcome: "applied", count: 0 })).toBe("Tried to update Records");
    expect(activitySummary({ ...update, outcome: "applied", count: 3 })).toBeUndefined();
    expect(activitySummary({ action: "upload", keys: ["a.txt"], detail: undefined, endpoint: "POST /api/v0/storage/object/b", outcome: "failed" })).toBe("Tried to upload a file");
    expect(triedTo("Moved a.txt → b.txt")).toBe("Tried to move a.txt → b.txt");
    expect(triedTo("Something else")).toBe("Something else");
  });
  it("names what a change refused for the role asked for, by the route the trail recorded", () => {
    const refused = (endpoint: string, asked?: string) => activitySummary({ action: "refused", keys: [], endpoint, asked });
    expect(refused("POST /v0/record/demo/employees/delete", "delete-records")).toBe("Tried to delete Records (refused)");
    expect(refused("POST /v0/record/demo/employees/update", "update")).toBe("Tried to update Records (refused)");
    expect(refused("PUT /v0/storage/team-files/a.txt", "upload")).toBe("Tried to upload a file (refused)");
    expect(refused("DELETE /v0/storage/team-files/a.txt", "delete")).toBe("Tried to delete a file (refused)");
    // Nothing recorded to say what it was: the kind's own words ("Refused") stand.
    expect(refused("POST /somewhere")).toBeUndefined();
  });

  it("names the Record an update asked for when its filter is a key's equality", () => {
    const edit = { filter: { and: [{ key: "employee_id", operator: "equal", value: "E00011" }, { key: "city", operator: "equal", value: "Old" }] } };
    expect(askedRecord(edit)).toBe("employee_id = E00011");
    expect(askedRecord({ filter: { and: [{ key: "age", operator: "greaterThan", value: 3 }] } })).toBeUndefined();
    expect(askedRecord({ filter: { and: [] } })).toBeUndefined();
    expect(askedRecord(undefined)).toBeUndefined();
  });
});

describe("importSummary", () => {
  it("says what an import added, changed and found as the file has it, however many it names", () => {
    expect(activitySummary({ action: "import", keys: [], outcome: "applied", inserted: 1_199_500, updated: 500, changed: 250 })).toBe("Imported a CSV: 1,199,500 Records added, 250 changed, 250 already as the file has them");
    // An entry written before `changed` was recorded: every Record named counts as updated.
    expect(activitySummary({ action: "import", keys: [], outcome: "applied", inserted: 1, updated: 2 })).toBe("Imported a CSV: 1 Record added, 2 updated");
  });
});

describe("file versions in words", () => {
  it("a version that is the moment it was written is shown as that moment; others as they are", () => {
    expect(versionText("1795750369973")).toMatch(/^the version of .*2026.*\d{2}:\d{2}:\d{2}/);
    expect(versionText("3HL4kqtJlcpXroDTDmjVBH40Nrjfkd")).toBe("version 3HL4kqtJlcpXroDTDmjVBH40Nrjfkd");
    expect(restoredText("v1795750321832/docs/report.txt")).toMatch(/^restored the version of .* as the newest$/);
    expect(restoredText(undefined)).toBeUndefined();
  });
});

describe("a cancelled storage job", () => {
  it("says what it did before it was cancelled, not that it was tried", () => {
    const d = { action: "delete", from: "huge/", files: Array.from({ length: 1000 }, (_, i) => `huge/${i}`), filesMore: true };
    expect(activitySummary({ action: "storage-job", keys: [], detail: d, endpoint: "POST /v0/storage/jobs/team-files", outcome: "cancelled", job: { state: "cancelled", done: 800, total: 28800 } })).toBe(
      "Deleted 800 of 28,800 files of huge/, then cancelled",
    );
    expect(activitySummary({ action: "storage-job", keys: [], detail: { action: "move", from: "a/", to: "b/" }, endpoint: "POST /v0/storage/jobs/x", outcome: "cancelled", job: { state: "cancelled", done: 64 } })).toBe(
      "Moved 64 files of a/ → b/, then cancelled",
    );
  });

  it("says in words a password change and a refused read (review 53b #6: the kind's name, and \"Refused\" alone)", () => {
    expect(people({ action: "change-password" }, "eddie@example.com")).toBe("eddie@example.com changed their password");
    expect(people({ action: "set-password", link: "invite" }, "bob@example.com")).toBe("bob@example.com set their password with an invite link");
    expect(people({ action: "set-password", link: "reset" }, "bob@example.com")).toBe("bob@example.com set their password with a reset link");
    expect(activitySummary({ action: "refused", keys: [], asked: "query", outcome: "refused" })).toBe("Tried to read Records (refused)");
    expect(activitySummary({ action: "refused", keys: [], asked: "list", outcome: "refused" })).toBe("Tried to list a folder (refused)");
  });
});
