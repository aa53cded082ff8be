/**
 * Endpoints that are extensions of Baseboard's local service (decisions §3 and §7), with the
 * capability an upstream declares them by (shared/meta.ts). Against a hosted upstream without
 * one, the proxy says so itself instead of passing on the upstream's bare "No endpoint" 404
 * (review 29a #10): the refusal says what is missing and why. Pure.
 */
import type { Capabilities } from "../../shared/meta";

type Extension = { capability: keyof Capabilities; what: string };

export const EXTENSIONS: Readonly<Record<string, Extension>> = {
  // decisions §3: the catalog is an extension too (the proxy asks for it to learn the rest).
  meta: { capability: "meta", what: "a catalog of its databases, tables and buckets (GET /v0/meta)" },
  fields: { capability: "fields", what: "a table's Fields (GET …/fields)" },
  list: { capability: "list", what: "listing a bucket's files" },
  delete: { capability: "delete", what: "deleting files" },
  import: { capability: "import", what: "CSV import" },
  "storage-job-start": { capability: "jobs", what: "storage jobs (moving, copying and deleting folders)" },
  "storage-job": { capability: "jobs", what: "storage jobs (moving, copying and deleting folders)" },
  "storage-job-cancel": { capability: "jobs", what: "storage jobs (moving, copying and deleting folders)" },
  "storage-search": { capability: "search", what: "searching a whole bucket" },
  "sign-many": { capability: "signMany", what: "signing many URLs in one request" },
  "storage-versions": { capability: "versions", what: "file versions" },
  "storage-restore": { capability: "versions", what: "restoring a file's version" },
  insert: { capability: "insert", what: "adding Records (insert)" },
  "delete-records": { capability: "deleteRecords", what: "deleting Records" },
  distinct: { capability: "distinct", what: "value suggestions (distinct)" },
  "upload-start": { capability: "resumable", what: "resumable uploads" },
  "upload-session": { capability: "resumable", what: "resumable uploads" },
  "upload-part": { capability: "resumable", what: "resumable uploads" },
  "upload-complete": { capability: "resumable", what: "resumable uploads" },
};

export const isExtension = (endpoint: string) => Object.hasOwn(EXTENSIONS, endpoint);

/** Why `endpoint` cannot be served by an upstream with `capabilities` (undefined when it can, or is no extension). */
export function missingExtension(endpoint: string, capabilities: Capabilities, upstreamLabel: string): string | undefined {
  const ext = EXTENSIONS[endpoint];
  if (!ext || capabilities[ext.capability] === true) return undefined;
  return `${upstreamLabel} does not offer ${ext.what}: it is an extension of Baseboard's local service, not part of the service's interface, and this upstream does not declare it. Use the app's other ways (or run Baseboard's local service) for this.`;
}
