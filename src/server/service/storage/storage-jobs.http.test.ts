/** Storage jobs over HTTP (issue 22.2): shapes, refusals, single keys, cancel, capabilities. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StorageTestService, startStorageService, upload, waitForAsync } from "./testing/storage-service";

let svc: StorageTestService;
beforeAll(async () => {
  svc = await startStorageService();
});
afterAll(() => svc?.close());

const json = (key = svc.key) => ({ "x-api-key": key, "content-type": "application/json" });
const start = (spec: unknown, key?: string) => fetch(`${svc.url}/v0/storage/jobs/public-assets`, { method: "POST", body: JSON.stringify(spec), headers: json(key) });
const status = async (id: string) => (await (await fetch(`${svc.url}/v0/storage/jobs/public-assets/${id}`, { headers: json() })).json()) as { state: string; done: number; total: number; error: string | null };
const finished = async (id: string) => {
  await waitForAsync(async () => (await status(id)).state !== "running", 10_000);
  return status(id);
};
const read = async (key: string) => {
  const res = await fetch(`${svc.url}/v0/storage/public/public-assets/${key}`);
  return res.status === 200 ? res.text() : res.status;
};

describe("storage jobs", () => {
  it("renames one key with its versions, and refuses to overwrite unless asked", async () => {
    const v1 = ((await (await upload(svc, "public-assets", "j/a.txt", "one")).json()) as { key: string }).key;
    await upload(svc, "public-assets", "j/a.txt", "two");
    await upload(svc, "public-assets", "j/b.txt", "bee");
    const res = await start({ action: "move", from: "j/a.txt", to: "j/c.txt" });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(await finished(id)).toMatchObject({ state: "done", done: 1, total: 1 });
    expect(await read("j/c.txt")).toBe("two");
    expect(await read(v1.replace("j/a.txt", "j/c.txt"))).toBe("one");
    expect(await read("j/a.txt")).toBe(404);

    const clash = await start({ action: "move", from: "j/b.txt", to: "j/c.txt" });
    expect(clash.status).toBe(409);
    expect(((await clash.json()) as { message: string }).message).toMatch(/already exists.*overwrite/);
    expect(await read("j/b.txt")).toBe("bee");
    const forced = (await (await start({ action: "move", from: "j/b.txt", to: "j/c.txt", overwrite: true })).json()) as { id: string };
    expect(await finished(forced.id)).toMatchObject({ state: "done" });
    expect(await read("j/c.txt")).toBe("bee");
    // Overwrite replaces every version of the destination: the old history is gone, not merged.
    expect(await read(v1.replace("j/a.txt", "j/c.txt"))).toBe(404);
  });

  it("a folder move or copy that would make a key longer than 1,024 bytes is refused, naming it; a shorter one is not (review 46a #1)", async () => {
    const long = `deep/${"ü".repeat(400)}${"k".repeat(219)}`; // 5 + 800 + 219 = 1,024 bytes
    await upload(svc, "public-assets", long, "long");
    await upload(svc, "public-assets", "deep/short.txt", "short");
    for (const action of ["move", "copy"]) {
      const res = await start({ action, from: "deep/", to: "deeper/deep/" });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(
        new RegExp(`^${action === "move" ? "Moving" : "Copying"} "deep/" to "deeper/deep/" would make "deeper/deep/ü+…k+" 1,031 bytes long; keys are at most 1,024 bytes\\. Choose a shorter destination`),
      );
    }
    expect(await read(long)).toBe("long");
    const { id } = (await (await start({ action: "move", from: "deep/", to: "dp/" })).json()) as { id: string };
    expect(await finished(id)).toMatchObject({ state: "done", done: 2 });
    expect(await read(`dp/${long.slice(5)}`)).toBe("long");
  });

  it("a copy onto an existing key says overwrite adds a version on top, as it does; a move, that it replaces every version (review 47a #4)", async () => {
    await upload(svc, "public-assets", "cw/a.txt", "a");
    await upload(svc, "public-assets", "cw/b.txt", "b");
    const said = async (action: string) => ((await (await start({ action, from: "cw/a.txt", to: "cw/b.txt" })).json()) as { message: string }).message;
    expect(await said("copy")).toBe('"cw/b.txt" already exists; send "overwrite": true to copy over it (a new version on top of it).');
    expect(await said("move")).toBe('"cw/b.txt" already exists; send "overwrite": true to replace it (every version of it).');
    const { id } = (await (await start({ action: "copy", from: "cw/a.txt", to: "cw/b.txt", overwrite: true })).json()) as { id: string };
    expect(await finished(id)).toMatchObject({ state: "done" });
    const versions = (await (await fetch(`${svc.url}/v0/storage/versions/public-assets/cw/b.txt`, { headers: json() })).json()) as { items: unknown[] };
    expect(versions.items).toHaveLength(2);
  });

  it("moves a folder onto existing names only with overwrite, replacing them", async () => {
    await upload(svc, "public-assets", "o/x.txt", "new x");
    await upload(svc, "public-assets", "o/y.txt", "new y");
    const old = ((await (await upload(svc, "public-assets", "p/x.txt", "old x")).json()) as { key: string }).key;
    expect((await start({ action: "move", from: "o/", to: "p/" })).status).toBe(409);
    const { id } = (await (await start({ action: "move", from: "o/", to: "p/", overwrite: true })).json()) as { id: string };
    expect(await finished(id)).toMatchObject({ state: "done", done: 2 });
    expect(await read("p/x.txt")).toBe("new x");
    expect(await read("p/y.txt")).toBe("new y");
    expect(await read(old)).toBe(404);
  });

  it("a folder onto a folder that holds files, or onto the top level, is refused unless overwrite (the two would mix); into a new folder inside it is not", async () => {
    await upload(svc, "public-assets", "mix-src/a.txt", "a");
    await upload(svc, "public-assets", "mix-dst/b.txt", "b");
    const refused = await start({ action: "move", from: "mix-src/", to: "mix-dst/" });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: string; message: string };
    expect(body.error).toBe("conflict");
    expect(body.message).toBe('"mix-dst/" already holds files; moving "mix-src/" there would mix the two folders. Choose another folder (such as "mix-dst/mix-src/", to put it inside), or send "overwrite": true to merge them (files at the same paths are replaced, every version of them).');
    const top = await start({ action: "copy", from: "mix-src/", to: "" });
    expect(top.status).toBe(409);
    expect(((await top.json()) as { message: string }).message).toMatch(/^The top level already holds files; copying "mix-src\/" there/);
    expect(await read("mix-src/a.txt")).toBe("a");
    // Its own files do not count: a folder inside the destination moves up when nothing else is there.
    await upload(svc, "public-assets", "solo/inner/c.txt", "c");
    const upRes = await start({ action: "move", from: "solo/inner/", to: "solo/" });
    const { id: up } = (await upRes.json()) as { id: string; message?: string };
    expect(upRes.status, JSON.stringify(up)).toBe(202);
    expect(await finished(up)).toMatchObject({ state: "done", done: 1 });
    expect(await read("solo/c.txt")).toBe("c");
    const inRes = await start({ action: "move", from: "mix-src/", to: "mix-dst/mix-src/" });
    const { id } = (await inRes.json()) as { id: string };
    expect(inRes.status, JSON.stringify(id)).toBe(202);
    expect(await finished(id)).toMatchObject({ state: "done", done: 1 });
    await upload(svc, "public-assets", "mix-other/z.txt", "z");
    const mergeRes = await start({ action: "copy", from: "mix-other/", to: "mix-dst/", overwrite: true });
    const mergeBody = (await mergeRes.json()) as { id: string };
    expect(mergeRes.status, JSON.stringify(mergeBody)).toBe(202);
    const merged = mergeBody.id;
    expect(await finished(merged)).toMatchObject({ state: "done" });
    expect(await read("mix-dst/z.txt")).toBe("z");
    expect(await read("mix-dst/mix-src/a.txt")).toBe("a");
  });

  it("answers bad requests, unknown jobs and missing keys in the one error shape", async () => {
    expect((await start({ action: "move", from: "j/", to: "j/x/" })).status).toBe(400);
    expect((await start({ action: "move", from: "nothing-here/", to: "x/" })).status).toBe(404);
    expect((await start({ action: "delete", from: "j/" }, "wrong-key")).status).toBe(401);
    const unknown = await fetch(`${svc.url}/v0/storage/jobs/public-assets/nope`, { headers: json() });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "not_found" });
  });

  it("cancels a running job; what was done stays done", async () => {
    for (let i = 0; i < 400; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => upload(svc, "public-assets", `c/${String(i + j).padStart(3, "0")}.txt`, `c${i + j}`)));
    const { id } = (await (await start({ action: "copy", from: "c/", to: "c2/" })).json()) as { id: string };
    const copied = async () => ((await (await fetch(`${svc.url}/v0/storage/list/public-assets?prefix=c2/&limit=1000`, { headers: json() })).json()) as { items: unknown[] }).items.length;
    // Cancelled in the middle of a step: some of its copies made, its count not yet recorded.
    await waitForAsync(async () => (await copied()) > 0, 10_000);
    const cancel = await fetch(`${svc.url}/v0/storage/jobs/public-assets/${id}`, { method: "DELETE", headers: { "x-api-key": svc.key } });
    expect(cancel.status).toBe(200);
    const answered = (await cancel.json()) as { state: string; done: number };
    const after = await finished(id);
    expect(after.state).toBe("cancelled");
    expect(after.done).toBeLessThan(400);
    // What the cancel answered is what is there, and stays so (review 29a #7: a copy step went
    // on after "cancelled", its files made and not counted).
    expect(answered).toMatchObject({ state: "cancelled", done: await copied() });
    await new Promise((r) => setTimeout(r, 300));
    expect((await status(id)).done).toBe(answered.done);
  });

  it("files added to a folder while a job takes it count in its total: never more done than in total (review 51a #3)", { timeout: 120_000 }, async () => {
    for (let i = 0; i < 400; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => upload(svc, "public-assets", `g/${String(i + j).padStart(3, "0")}.txt`, `g${i + j}`)));
    const { id, total } = (await (await start({ action: "copy", from: "g/", to: "g2/" })).json()) as { id: string; total: number };
    expect(total).toBe(400);
    const copied = async () => ((await (await fetch(`${svc.url}/v0/storage/list/public-assets?prefix=g2/&limit=1000`, { headers: json() })).json()) as { items: unknown[] }).items.length;
    await waitForAsync(async () => (await copied()) > 0, 10_000);
    // After every key the job has passed: it takes these too.
    await Promise.all(Array.from({ length: 20 }, (_, j) => upload(svc, "public-assets", `g/zz-${j}.txt`, `late ${j}`)));
    // 420 copies: longer than finished()'s 10 s on a busy machine (CI ran out of it).
    await waitForAsync(async () => (await status(id)).state !== "running", 90_000);
    const after = await status(id);
    expect(after.state).toBe("done");
    expect(after.done).toBe(420);
    expect(after.total).toBe(after.done);
    expect(await copied()).toBe(420);
  });

  it("refuses a job on the same files as one still running (409 naming it), and takes one elsewhere", async () => {
    await Promise.all(Array.from({ length: 60 }, (_, i) => upload(svc, "public-assets", `o/a/${String(i).padStart(2, "0")}.txt`, `o${i}`)));
    await upload(svc, "public-assets", "elsewhere/x.txt", "x");
    await upload(svc, "public-assets", "later/z.txt", "z");
    // Asked at the same moment: one runs, the other is refused naming it (run at once, one moved
    // nothing and ended "done"). Which one wins is the network's choice.
    const answers = await Promise.all([start({ action: "copy", from: "o/a/", to: "o/c/" }), start({ action: "delete", from: "o/" })]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const [won, lost] = answers[0].status === 202 ? answers : [answers[1], answers[0]];
    expect(await lost.json()).toMatchObject({ error: "conflict", message: expect.stringMatching(/^Another storage job is at work on the same files \((copy o\/a\/ → o\/c\/|delete o\/), \d+ of 60 done, job [0-9a-f-]{36}\): wait for it to end, or cancel it/) });
    // Under either, o/c/ is taken; a job elsewhere is not.
    expect((await start({ action: "move", from: "o/c/", to: "o/d/" })).status).toBe(409);
    expect((await start({ action: "copy", from: "elsewhere/", to: "elsewhere2/" })).status).toBe(202);
    const { id } = (await won.json()) as { id: string };
    expect((await finished(id)).state).toBe("done");
    // Ended: the same files may be asked for again.
    expect((await start({ action: "copy", from: "later/", to: "o/e/" })).status).toBe(202);
  });

  it("is advertised in capabilities", async () => {
    const meta = (await (await fetch(`${svc.url}/v0/meta`, { headers: json() })).json()) as { capabilities: { jobs?: boolean } };
    expect(meta.capabilities.jobs).toBe(true);
  });
});
