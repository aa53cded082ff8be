import { describe, expect, it } from "vitest";
import { REPLACE_AT_PATH, conflictText, jobPercent, jobText } from "./job-text.utils";

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

describe("conflictText", () => {
  it("names the checkbox, not the API field, when the destination exists", () => {
    const service = '"docs/data.csv" already exists; send "overwrite": true to replace it (every version of it).';
    expect(conflictText(service, REPLACE_AT_PATH, "choose another name")).toBe(
      "“docs/data.csv” already exists. Tick “Replace existing files at the new path” to replace it (every version of it), or choose another name.",
    );
    // A copy over it adds a version on top; it removes none (review 47a #4).
    const copy = '"docs/data.csv" already exists; send "overwrite": true to copy over it (a new version on top of it).';
    expect(conflictText(copy, REPLACE_AT_PATH, "choose another name")).toBe(
      "“docs/data.csv” already exists. Tick “Replace existing files at the new path” to copy over it (a new version on top of it), or choose another name.",
    );
    // Someone who may not replace is not told to tick what they cannot.
    expect(conflictText(service, undefined, "choose another name")).toBe("“docs/data.csv” already exists: choose another name.");
    // Keys are quoted as they are, quotes included.
    expect(conflictText(`"say "hi".txt" already exists; copy with overwrite to replace it.`, REPLACE_AT_PATH, "choose another path")).toMatch(/^“say "hi"\.txt” already exists\. Tick/);
  });
  it("a folder onto one that holds files: says the two would mix, how to put it inside, and the checkbox that merges", () => {
    const service = '"docs/" already holds files; moving "dropped/" there would mix the two folders. Choose another folder (such as "docs/dropped/", to put it inside), or send "overwrite": true to merge them (files at the same paths are replaced, every version of them).';
    expect(conflictText(service, REPLACE_AT_PATH, "choose another path")).toBe(
      "“docs/” already holds files: moving there would mix the two folders. Choose another folder (such as “docs/dropped/”, to put it inside), or tick “Replace existing files at the new path” to merge them.",
    );
    const top = 'The top level already holds files; copying "limit/" there would mix the two folders. Choose another folder, or send "overwrite": true to merge them (files at the same paths get a new version on top).';
    expect(conflictText(top, REPLACE_AT_PATH, "x")).toBe("The top level already holds files: copying there would mix the two folders. Choose another folder, or tick “Replace existing files at the new path” to merge them.");
  });
  it("leaves other refusals alone", () => {
    expect(conflictText('"k" already exists in bucket "b", and the bucket does not grant update access to overwrite it.', REPLACE_AT_PATH, "x")).toBeUndefined();
    expect(conflictText("There is nothing at \"a/\" in bucket \"b\".", REPLACE_AT_PATH, "x")).toBeUndefined();
  });
  it("says what to do when a file appeared at the destination during the job", () => {
    const text = jobText({ ...job, state: "failed", done: 3, error: '"b/x.txt" already exists; run the job with overwrite to replace it. 3 done before this.' });
    expect(text).toBe("Stopped after 3 files of 2,000: “b/x.txt” appeared at the destination meanwhile. Start again with “Replace existing files at the new path” ticked to replace it");
    expect(text).not.toMatch(/overwrite/);
  });
});
