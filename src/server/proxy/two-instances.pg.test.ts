/**
 * Stateless instances (issue 12 items 4 and 6): two service processes on one PostgreSQL database
 * and one S3 bucket (a real s3rver on loopback), each behind its own proxy; the two share only
 * what a deployment shares: the database, the bucket, the signing key file and the session
 * secret. A login on one proxy is a session on the other; 20 concurrent uploads of one key
 * spread over both get distinct versions, each readable through the other; a URL signed by one
 * instance verifies on the other, and a key rotation made outside both is seen by both.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Baseboard, startBaseboard } from "../launcher/start";
import { fromApp, makeDist, raw } from "./testing/test-baseboard";
import { createTestDatabase, type TestDatabase } from "../service/engines/postgres/testing/test-database";
import { PROCESS_KEY, type ServiceProcess, startServiceProcess } from "../service/testing/service-process";
import { rotateSigningKey } from "../service/storage/domain/signing";

const PASSWORD = "two instances, one password";
const SECRET = "a-session-secret-shared-by-both-proxies";
const BUCKET = "shared-bucket";
let dir: string;
let s3: S3rver;
let db: TestDatabase;
let services: ServiceProcess[] = [];
let proxies: Baseboard[] = [];
let keysFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-two-s3-"));
  fs.mkdirSync(path.join(dir, "s3rver"));
  s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: path.join(dir, "s3rver"), silent: true });
  const endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  client.destroy();
  db = await createTestDatabase(inject("pgAdminUrl"));
  keysFile = path.join(dir, "shared", "signing-keys.json");
  const common = {
    DATABASE_URL: db.url,
    DATABASE_POOL_MAX: "4",
    STORAGE_URL: `s3://${BUCKET}/baseboard`,
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    STORAGE_SIGNING_KEYS_FILE: keysFile,
  };
  // Separate data directories: nothing on a local disk is shared.
  services = await Promise.all(["a", "b"].map((n) => startServiceProcess({ ...common, DATA_DIR: path.join(dir, `service-${n}`) })));
  makeDist(dir);
  proxies = await Promise.all(
    services.map((svc, i) =>
      startBaseboard(
        {
          PORT: "0",
          BASE_URL: svc.url,
          API_KEY: PROCESS_KEY,
          BASEBOARD_PASSWORD: PASSWORD,
          BASEBOARD_SESSION_SECRET: SECRET,
          BASEBOARD_DIST: path.join(dir, "dist"),
          BASEBOARD_CONFIG: path.join(dir, `proxy-${i}.config.json`),
          DATA_DIR: path.join(dir, `proxy-${i}`),
        },
        { log: () => {} },
      ),
    ),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close(500)));
  await Promise.all(services.map((s) => s.stop()));
  await db?.drop();
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function login(board: Baseboard): Promise<string> {
  const res = await raw(board.url, "/login", {
    method: "POST",
    headers: { origin: board.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ password: PASSWORD, next: "/" }).toString(),
  });
  expect(res.status).toBe(303);
  return (res.headers["set-cookie"]?.[0] ?? "").split(";")[0];
}

function form(key: string, content: Buffer): { body: Buffer; type: string } {
  const boundary = `----bbtwo${randomBytes(4).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe("two services and two proxies on one database and one bucket", () => {
  let cookie = "";

  it("a login on one proxy is a session on the other", async () => {
    const [a, b] = proxies;
    expect((await raw(b.url, "/api/config")).status).toBe(401);
    cookie = await login(a);
    expect((await raw(a.url, "/api/config", { headers: { cookie } })).status).toBe(200);
    expect((await raw(b.url, "/api/config", { headers: { cookie } })).status).toBe(200);
  });

  it("20 concurrent uploads of one key spread over both get distinct versions, each readable through the other", async () => {
    const contents = Array.from({ length: 20 }, (_, i) => Buffer.concat([Buffer.from(`upload ${i}\n`), randomBytes(2000 + i)]));
    const answers = await Promise.all(
      contents.map(async (content, i) => {
        const board = proxies[i % 2];
        const f = form("shared/one-key.bin", content);
        const res = await raw(board.url, "/api/v0/storage/object/public-assets", {
          method: "POST",
          headers: fromApp(board.url, { cookie, "content-type": f.type, "content-length": String(f.body.length) }),
          body: f.body,
        });
        expect(res.status, res.text).toBe(200);
        return (res.json() as { key: string }).key;
      }),
    );
    expect(new Set(answers).size).toBe(20);
    for (const k of answers) expect(k).toMatch(/^v\d+\/shared\/one-key\.bin$/);
    for (const [i, k] of answers.entries()) {
      const other = proxies[(i + 1) % 2];
      const res = await raw(other.url, `/api/v0/storage/public/public-assets/${k}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.body.equals(contents[i])).toBe(true);
    }
    // The unversioned key is the newest version on both instances.
    const newest = answers.reduce((x, y) => (BigInt(y.split("/")[0].slice(1)) > BigInt(x.split("/")[0].slice(1)) ? y : x));
    for (const board of proxies) {
      const res = await raw(board.url, "/api/v0/storage/public/public-assets/shared/one-key.bin", { headers: { cookie } });
      expect(res.body.equals(contents[answers.indexOf(newest)])).toBe(true);
    }
  });

  it("a URL signed by one instance verifies on the other, and a rotation made elsewhere is seen by both", async () => {
    const [a, b] = proxies;
    const f = form("signed/doc.bin", Buffer.from("signed across instances"));
    const up = await raw(a.url, "/api/v0/storage/object/team-files", {
      method: "POST",
      headers: fromApp(a.url, { cookie, "content-type": f.type, "content-length": String(f.body.length) }),
      body: f.body,
    });
    expect(up.status, up.text).toBe(200);
    const sign = async (board: Baseboard) => {
      const res = await raw(board.url, "/api/v0/storage/url/sign/team-files/signed/doc.bin", { headers: fromApp(board.url, { cookie }) });
      expect(res.status, res.text).toBe(200);
      const url = new URL((res.json() as { url: string }).url);
      return { pathAndQuery: url.pathname + url.search, pair: url.searchParams.get("Key-Pair-Id") };
    };
    const fromA = await sign(a);
    // A separate service signs URLs naming itself (SERVICE_PUBLIC_URL: a load balancer in a
    // deployment); the one signed by instance A is taken to instance B, with no key.
    const onB = await raw(services[1].url, fromA.pathAndQuery);
    expect(onB.status, onB.text).toBe(200);
    expect(onB.body.toString()).toBe("signed across instances");

    const rotated = rotateSigningKey(keysFile);
    expect(rotated).not.toBe(fromA.pair);
    // Each instance follows the shared file (a watcher, and a check at most every second).
    await expect.poll(async () => (await sign(b)).pair, { timeout: 5000, interval: 200 }).toBe(rotated);
    await expect.poll(async () => (await sign(a)).pair, { timeout: 5000, interval: 200 }).toBe(rotated);
    const fromB = await sign(b);
    expect((await raw(services[0].url, fromB.pathAndQuery)).status).toBe(200);
    // The older pair keeps verifying until it is retired.
    expect((await raw(services[0].url, fromA.pathAndQuery)).status).toBe(200);
    const tampered = fromB.pathAndQuery.replace(/Signature=([^&])/, (_m, c: string) => `Signature=${c === "A" ? "B" : "A"}`);
    expect((await raw(services[1].url, tampered)).status).toBe(403);
  });
});
