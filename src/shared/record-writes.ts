/**
 * Bodies and answers of the insert and delete extensions (issue 24 items 1–2), checked at the
 * service's edge and used by the app. Records themselves are checked against their Fields by the
 * service (values are unknown here).
 */
import { z } from "zod";

export const INSERT_MAX_RECORDS = 1000;

export const insertBodySchema = z.strictObject({
  records: z
    .array(z.unknown(), 'records must be an array of Records, e.g. {"records": [{"id": "a1", …}]}')
    .max(INSERT_MAX_RECORDS, `records holds more than ${INSERT_MAX_RECORDS.toLocaleString("en-US")} Records; send at most ${INSERT_MAX_RECORDS.toLocaleString("en-US")} per request`),
});

export const deleteBodySchema = z.strictObject({
  /** Required, but checked by the service so that its message can say how to delete everything. */
  filter: z.unknown().optional(),
  expectedCount: z
    .number("expectedCount must be the number of Records you expect the filter to match")
    // Past 2^53 too (review 48a #5: 1e20 was "must be a whole number", which it is).
    .int("expectedCount must be a whole number from 0 to 9,007,199,254,740,991: the number of Records you expect the filter to match")
    .min(0, "expectedCount cannot be negative"),
});

export type InsertBody = z.infer<typeof insertBodySchema>;
export type DeleteBody = z.infer<typeof deleteBodySchema>;

/** Answer of both: how many Records were inserted or deleted. */
export interface WriteCount {
  count: number;
}

/** Value suggestions for the filter builder (issue 24 item 6): the most frequent values of a Field. */
export const DISTINCT_MAX = 100;
export const distinctBodySchema = z.strictObject({
  key: z.string("key must name a Field").min(1, "key must name a Field"),
  /** Only values starting with this text (case-insensitive). */
  prefix: z.string("prefix must be a string").max(200, "prefix is longer than 200 characters").optional(),
  limit: z
    .number("limit must be a number")
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(DISTINCT_MAX, `limit must be at most ${DISTINCT_MAX}`)
    .optional(),
});
export type DistinctBody = z.infer<typeof distinctBodySchema>;
export interface DistinctResponse {
  items: { value: string | number | boolean; count: number }[];
}

/**
 * Update extension (capability `beforeImages` in /v0/meta): an update sent with this header,
 * valued n (1 to BEFORE_IMAGES_MAX), answers `{"message": "ok", "before": {"fields": [...],
 * "rows": [[...], ...]}}`: the primary key (first) and the Fields being set of at most n
 * matching Records as they were just before the update, read in the update's own transaction (in
 * no particular order), one array per Record in `fields` order. Arrays, not one object per
 * Record: for 10,000 Records, half the bytes to send, parse, hash and store, and the engine
 * writes the JSON itself. Baseboard's audit trail asks for it instead of reading the Records
 * itself before forwarding; `x-matched-count` still says how many matched in all.
 */
/*
 * Record delete extension (capability `deletedImages`): a delete sent with the same header answers
 * `{"count": n, "before": {"fields": [...], "rows": [...]}}`: every Field of at most n of the
 * Records it removed, read in the delete's own transaction, so that what the trail records is
 * exactly what went (a read before forwarding missed a Record added meanwhile that the delete
 * then removed: review 48a #1).
 */
export interface BeforeImages {
  fields: string[];
  rows: unknown[][];
}
export const BEFORE_IMAGES_HEADER = "x-baseboard-before-images";
/**
 * Sent by the app with the requests an Undo or Redo makes ("undo: Import people.csv", URI-encoded):
 * the audit trail records it beside the change (`undoOf`), so Activity says what each is; the
 * proxy reads it and never sends it on.
 */
export const UNDO_HEADER = "x-baseboard-undo";
export const BEFORE_IMAGES_MAX = 10_000;
