import { describe, expect, it } from "vitest";
import { jobPercent, jobText } from "./job-text.utils";

const job = { id: "1", action: "move" as const, from: "a/", to: "b/", state: "running" as const, done: 1200, total: 2000, error: null };

describe("jobText", () => {
  it("says what runs and how far", () => {
    expect(jobText(job)).toBe("Moving a/ → b/: 1,200 of 2,000 files");
    expect(jobPercent(job)).toBe(60);
  });
  it("says how it ended", () => {
    expect(jobText({ ...job, state: "done", done: 2000 })).toBe("Moved 2,000 files: a/ → b/");
    expect(jobText({ ...job, state: "cancelled" })).toMatch(/^Cancelled after 1,200 files of 2,000/);
    expect(jobText({ ...job, action: "delete", state: "failed", done: 1, error: "boom" })).toBe("Stopped after 1 file of 2,000: boom");
    expect(jobText({ ...job, to: "" , state: "done"})).toMatch(/the top level/);
  });
});
