/**
 * One person's slow transfers take only their share of an upstream lane (proxy/lane-gate.ts):
 * editor 1 sends ten uploads a byte at a time (each under the idle limit, so none is cut) into
 * a lane of eight connections; editor 2's upload still goes through while they drip. Without
 * the share, editor 1 held all eight and editor 2 waited until the drips stopped. Real proxy in
 * team mode, real service behind it, raw sockets.
 */
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp } from "../proxy/testing/test-baseboard";
import { signIn, startTeamStack, type TeamStack, waitForMode } from "./testing/team-stack";

const PW = "a perfectly long passphrase";
let stack: TeamStack;

beforeAll(async () => {
  stack = await startTeamStack({ UPSTREAM_UPLOAD_CONNECTIONS: "8" });
  for (const email of ["ed1@example.com", "ed2@example.com"]) expect((await stack.admin.add({ email, role: "editor", password: PW })).ok).toBe(true);
  await waitForMode(stack.proxy.url, "people");
}, 60_000);
afterAll(() => stack?.stop());

function drippingUpload(cookie: string, i: number): Promise<net.Socket> {
  const u = new URL(stack.proxy.url);
  const start =
    `--x\r\nContent-Disposition: form-data; name="key"\r\n\r\ndrip/${i}.bin\r\n` +
    `--x\r\nContent-Disposition: form-data; name="file"; filename="${i}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST /api/v0/storage/object/public-assets HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: ${stack.proxy.url}\r\nx-baseboard-client: 1\r\n` +
          `Cookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n${start}`,
      );
      resolve(socket);
    });
    socket.on("error", () => {});
    socket.once("error", reject);
  });
}

it("one editor's ten dripping uploads leave room for another editor's upload", async () => {
  const base = stack.proxy.url;
  const ed1 = await signIn(base, "ed1@example.com", PW);
  const ed2 = await signIn(base, "ed2@example.com", PW);
  const drips = await Promise.all(Array.from({ length: 10 }, (_, i) => drippingUpload(ed1, i)));
  const timer = setInterval(() => {
    for (const d of drips) d.write("z");
  }, 500);
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const form = new FormData();
    form.append("key", "drip/other-person.txt");
    form.append("file", new Blob(["hi"], { type: "text/plain" }), "other-person.txt");
    const upload = fetch(`${base}/api/v0/storage/object/public-assets`, { method: "POST", headers: { ...fromApp(base), cookie: ed2 }, body: form }).then((r) => r.status);
    // Settled while the drips go on (they are not stopped before this answers or 20 s pass).
    const settled = await Promise.race([upload, new Promise<string>((r) => setTimeout(() => r("still waiting"), 20_000))]);
    expect(settled).toBe(200);
    expect(drips.filter((d) => d.destroyed)).toHaveLength(0);
  } finally {
    clearInterval(timer);
    for (const d of drips) d.destroy();
  }
}, 60_000);
