/**
 * `npm run bench -- storage --backend s3` (issue 12 item 7): a 1 GiB file up and down through
 * the service on STORAGE_URL=s3://… against a real S3-compatible server (s3rver, loopback, in
 * this process), beside the AWS SDK moving the same file straight to and from the same server
 * (lib-storage's multipart Upload with the same part size and queue, a streamed GetObject), as
 * throughput ratios; the service's peak RSS during the transfers (target < 150 MB). The service
 * runs as `npm run service` runs it (the esbuild bundle on plain node).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CreateBucketCommand, GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import S3rver from "s3rver";
import { SIZE, agent, fmt, get, makeFile, mb, report, startService, stopService, timed, uploadFile, withPeakRss } from "./storage";

const BUCKET = "bench";
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

async function sdkBaseline(client: S3Client, source: string, dir: string): Promise<{ up: number; down: number }> {
  const key = `direct/${Date.now()}.bin`;
  const up = await timed(() =>
    new Upload({ client, params: { Bucket: BUCKET, Key: key, Body: fs.createReadStream(source, { highWaterMark: 1024 * 1024 }) }, partSize: 8 * 1024 * 1024, queueSize: 2 }).done(),
  );
  const target = path.join(dir, "direct-down.bin");
  const down = await timed(async () => {
    const out = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    await pipeline(out.Body as Readable, fs.createWriteStream(target, { flush: true }));
  });
  if (fs.statSync(target).size !== SIZE) throw new Error("SDK download size mismatch");
  fs.rmSync(target);
  return { up: SIZE / up / 1024 / 1024, down: SIZE / down / 1024 / 1024 };
}

export async function runS3(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-s3-"));
  const s3dir = path.join(dir, "s3rver");
  fs.mkdirSync(s3dir);
  const s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: s3dir, silent: true });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials, requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" });
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const source = path.join(dir, "source.bin");
    console.log(`\nwriting a ${mb(SIZE)} MiB test file…`);
    await makeFile(source, SIZE);
    service = await startService(path.join(dir, "data"), "bundle", {
      STORAGE_URL: `s3://${BUCKET}/service`,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    });
    const pid = service.child.pid!;
    // s3rver's disk speed drifts on a shared machine: the SDK runs right before and right after.
    const before = await sdkBaseline(client, source, dir);
    const fresh = await withPeakRss(pid, async () => undefined);
    // One small file up and down first: the SDK's upload and download code is loaded on first
    // use, a one-time cost; what the transfer itself adds is measured from there.
    const warm = path.join(dir, "warm.bin");
    await makeFile(warm, 1024 * 1024);
    await uploadFile(service.url, "public-assets", "bench/warm.bin", warm);
    await get(service.url, "/v0/storage/public/public-assets/bench/warm.bin");
    const idle = await withPeakRss(pid, async () => undefined);
    const up = await withPeakRss(pid, () => timed(() => uploadFile(service!.url, "public-assets", "bench/big.bin", source)));
    const downloaded = path.join(dir, "downloaded.bin");
    const down = await withPeakRss(pid, () => timed(() => get(service!.url, "/v0/storage/public/public-assets/bench/big.bin", fs.createWriteStream(downloaded, { flush: true }))));
    if (fs.statSync(downloaded).size !== SIZE) throw new Error("download size mismatch");
    fs.rmSync(downloaded);
    const after = await sdkBaseline(client, source, dir);
    const sdkUp = (before.up + after.up) / 2;
    const sdkDown = (before.down + after.down) / 2;
    const upRate = SIZE / up.result / 1024 / 1024;
    const downRate = SIZE / down.result / 1024 / 1024;
    console.log(`\n1s. ${mb(SIZE)} MiB through the service on S3 (s3rver on loopback; bundle on plain node) vs the AWS SDK straight to the same server`);
    report("upload throughput", `${fmt(upRate, 0)} MiB/s`, `${fmt(sdkUp, 0)} MiB/s`, upRate / sdkUp, "", true);
    report("download throughput", `${fmt(downRate, 0)} MiB/s`, `${fmt(sdkDown, 0)} MiB/s`, downRate / sdkDown, "", true);
    const peak = Math.max(up.peak, down.peak);
    console.log(
      `${"service peak RSS while transferring".padEnd(34)} ${`${mb(peak)} MB`.padStart(14)}  fresh ${mb(fresh.peak)} MB, warmed up ${mb(idle.peak)} MB; the transfer adds ${mb(peak - idle.peak)} MB; upload ${mb(up.peak)}, download ${mb(down.peak)}  target < 150 MB ${peak < 150 * 1024 * 1024 ? "met" : "NOT met"}`,
    );
  } finally {
    if (service) await stopService(service.child);
    agent.destroy();
    client.destroy();
    await s3.close();
    http.globalAgent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
