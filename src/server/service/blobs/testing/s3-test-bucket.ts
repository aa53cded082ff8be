/** A fresh bucket in the test run's s3rver (see s3rver-global-setup.ts), as a STORAGE_URL config would name it. */
import { randomBytes } from "node:crypto";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { inject } from "vitest";
import type { BlobStoreConfig } from "../storage-url";

export type S3Config = Extract<BlobStoreConfig, { kind: "s3" }>;

export function s3TestConfig(bucket: string, endpoint = inject("s3Endpoint")): S3Config {
  return {
    kind: "s3",
    bucket,
    prefix: "bb/",
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    // s3rver's fixed development credentials.
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  };
}

export async function freshS3Bucket(): Promise<S3Config> {
  const config = s3TestConfig(`bb-${randomBytes(6).toString("hex")}`);
  const client = new S3Client({ region: config.region, endpoint: config.endpoint, forcePathStyle: true, credentials: config.credentials });
  try {
    await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
  } finally {
    client.destroy();
  }
  return config;
}
