/**
 * GET /v0/meta (extension of the local service) and GET /api/config (the proxy): what to show
 * in the sidebar, and what the upstream can do. An upstream with only the hosted interface has
 * no meta; the proxy then fills the same shape from its config file and plain capabilities.
 */
import type { Operator } from "./filter";
import type { FieldType } from "./records";

/**
 * The app's own request header (src/web/api-client.ts sends it): the proxy refuses any /api
 * request other than GET/HEAD without it, and without the app's own Origin (CSRF).
 */
export const CLIENT_HEADER = "x-baseboard-client";

/** subCode of the proxy's 401 when BASEBOARD_PASSWORD is set and the browser has no session. */
export const LOGIN_REQUIRED_SUBCODE = 10;

/** `/login?reason=ended`: the sign-in page says the person's session ended (not a first visit). */
export const SESSION_ENDED_REASON = "ended";

export type BucketPermission = "forbidden" | "public" | "limitedPublic";
export type BucketAccess = "read" | "create" | "update";

/**
 * A Field declared in the proxy's config file, for an upstream without the `fields` endpoint:
 * its type (and, for image/attachment, the bucket its object keys live in) is then known
 * before any row shows it.
 */
export interface MetaField {
  key: string;
  type: FieldType;
  bucket?: string;
  nullable?: boolean;
}

export interface MetaTable {
  slug: string;
  primaryKey: string;
  /** Declared Fields (config file only; the meta extension leaves it out). */
  fields?: MetaField[];
}

export interface MetaDatabase {
  id: string;
  tables: MetaTable[];
}

export interface MetaBucket {
  name: string;
  permission: BucketPermission;
  access: BucketAccess[];
}

export interface Capabilities {
  operators: Operator[];
  /** GET /v0/record/{db}/{table}/fields */
  fields: boolean;
  /** GET /v0/meta */
  meta: boolean;
  /** GET /v0/storage/list/{bucket} */
  list: boolean;
  /** DELETE /v0/storage/object/{bucket}/{key} */
  delete: boolean;
  /** ?expiresIn= on GET /v0/storage/url/sign/... */
  expiresIn: boolean;
  /** POST /v0/storage/url/sign/{bucket} with {keys, expiresIn?}: many signed URLs in one request; absent means no. */
  signMany?: boolean;
  /** POST /v0/record/{db}/{table}/import (CSV); absent means no. */
  import?: boolean;
  /** POST/GET/DELETE /v0/storage/jobs/{bucket}[/{id}]: server-side move, copy, delete of keys and folders; absent means no. */
  jobs?: boolean;
  /** GET /v0/storage/search/{bucket}?q=: whole-bucket name search; absent means no. */
  search?: boolean;
  /** GET /v0/storage/versions/{bucket}/{key} and POST /v0/storage/restore/{bucket}/{versionedKey} (issue 22.4); absent means no. */
  versions?: boolean;
  /** POST /v0/record/{db}/{table}/insert (issue 24); absent means no. */
  insert?: boolean;
  /** POST /v0/record/{db}/{table}/delete with expectedCount (issue 24; `delete` is the storage one); absent means no. */
  deleteRecords?: boolean;
  /** POST /v0/record/{db}/{table}/distinct: value suggestions (issue 24); absent means no. */
  distinct?: boolean;
  /** /v0/storage/uploads/{bucket}[/{id}[/parts/{n}|/complete]]: uploads in parts that resume after a cut (issue 22.5); absent means no. */
  resumable?: boolean;
  /** The `anyOf` filter operator (issue 24; not in `operators`, which older proxies check strictly); absent means no. */
  anyOf?: boolean;
  /** GET /v0/events: server-sent events of the service's own changes (issue 20); absent means no. */
  events?: boolean;
  /** Updates answer what they overwrote when asked (BEFORE_IMAGES_HEADER, shared/record-writes.ts; issue 19); absent means no. */
  beforeImages?: boolean;
  /** Record deletes answer the Records they removed when asked (the same header; shared/record-writes.ts); absent means no. */
  deletedImages?: boolean;
}

export interface MetaResponse {
  databases: MetaDatabase[];
  buckets: MetaBucket[];
  capabilities: Capabilities;
}

/** GET /api/config */
export interface AppConfig extends MetaResponse {
  /** local = the embedded service; hosted = BASE_URL. label is for display (no secrets). */
  upstream: { kind: "local" | "hosted"; label: string };
  /**
   * Set when the tables and buckets come from the proxy's config file (the upstream has no
   * meta), or when there are none to show: a sentence the app may display as is.
   */
  notice?: string;
}
