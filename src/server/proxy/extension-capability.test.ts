import { describe, expect, it } from "vitest";
import { PLAIN_CAPABILITIES } from "./app-config";
import { ENDPOINTS } from "./routes";
import { EXTENSIONS, missingExtension } from "./extension-capability";

describe("extension endpoints against an upstream without them", () => {
  it("names every extension of the allow list, and nothing of the interface", () => {
    const interfaceEndpoints = ["query", "query-data-api", "update", "upload", "get-file", "sign-url", "signed-file"];
    for (const e of ENDPOINTS) expect(e.name in EXTENSIONS || interfaceEndpoints.includes(e.name), e.name).toBe(true);
    for (const name of interfaceEndpoints) expect(missingExtension(name, PLAIN_CAPABILITIES, "x")).toBeUndefined();
  });

  it("says what is missing with the interface's capabilities, nothing when declared", () => {
    expect(missingExtension("insert", PLAIN_CAPABILITIES, "The service at api.example.com")).toBe(
      "The service at api.example.com does not offer adding Records (insert): it is an extension of Baseboard's local service, not part of the service's interface, and this upstream does not declare it. Use the app's other ways (or run Baseboard's local service) for this.",
    );
    expect(missingExtension("storage-job-start", PLAIN_CAPABILITIES, "x")).toMatch(/storage jobs/);
    // decisions §3: GET /v0/meta is an extension (review 37a #3: its bare 404 was passed on).
    expect(missingExtension("meta", PLAIN_CAPABILITIES, "x")).toMatch(/^x does not offer a catalog of its databases, tables and buckets \(GET \/v0\/meta\)/);
    expect(missingExtension("insert", { ...PLAIN_CAPABILITIES, insert: true }, "x")).toBeUndefined();
    expect(missingExtension("upload-part", { ...PLAIN_CAPABILITIES, resumable: true }, "x")).toBeUndefined();
  });
});
