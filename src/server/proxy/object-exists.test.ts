/** /api/exists over the real proxy and the real embedded local service. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

let board: TestBaseboard;
beforeAll(async () => {
  board = await startTestBaseboard({ API_KEY: "proxy-key-exists-91c2" });
});
afterAll(() => board.stop());

const ask = (path: string) => raw(board.url, `/api/exists/v0/storage/public/${path}`, { headers: fromApp(board.url) });

describe("/api/exists", () => {
  it("says false for a missing key with a 200, true for an existing one (an empty file too)", async () => {
    const missing = await ask("team-files/no/such-file.txt");
    expect(missing.status).toBe(200);
    expect(missing.json()).toEqual({ exists: false });

    const boundary = "----bbexists";
    for (const [key, content] of [["ex/one.txt", "hello"], ["ex/empty.txt", ""]]) {
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`;
      const up = await raw(board.url, "/api/v0/storage/object/team-files", {
        method: "POST",
        headers: fromApp(board.url, { "content-type": `multipart/form-data; boundary=${boundary}` }),
        body,
      });
      expect(up.status, up.text).toBe(200);
      const res = await ask(`team-files/${key}`);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ exists: true });
    }
  });

  it("passes the upstream's refusal on, and refuses paths outside the file endpoint", async () => {
    const forbidden = await ask("vault/anything.txt");
    expect(forbidden.status).toBe(403);
    expect(forbidden.json()).toMatchObject({ error: "forbidden" });
    const dots = await raw(board.url, "/api/exists/v0/storage/public/team-files/%2e%2e/x", { headers: fromApp(board.url) });
    expect(dots.status).toBe(404);
    const other = await raw(board.url, "/api/exists/v0/meta", { headers: fromApp(board.url) });
    expect(other.status).toBe(404);
  });
});
