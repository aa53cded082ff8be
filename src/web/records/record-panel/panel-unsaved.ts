/**
 * The record panel's unsaved edits across a sign-in (the session ended under them): kept in this
 * tab's sessionStorage for their Record, and given back once when the panel opens it again, with
 * a toast saying so. The grid's cells have the same in grid/unsaved-edits.ts.
 */
import type { RecordValue } from "../../../shared/records";
import { toast } from "../../ui/toast";

export interface PanelEdits {
  drafts: Record<string, string | null>;
  bases: Record<string, RecordValue>;
}

const storageKey = (db: string, table: string, record: string) => `bb-unsaved-panel:${db}/${table}/${record}`;

export function keepForSignIn(db: string, table: string, record: string, edits: PanelEdits): void {
  if (!Object.keys(edits.drafts).length) return;
  try {
    sessionStorage.setItem(storageKey(db, table, record), JSON.stringify(edits));
  } catch {
    /* storage full or refused: nothing more can be done on the way out */
  }
}

/** `quiet`: the panel says it in place (the person may no longer change the Record: no "press Save"). */
export function takeAfterSignIn(db: string, table: string, record: string, quiet = false): PanelEdits | undefined {
  let kept: unknown;
  try {
    const key = storageKey(db, table, record);
    kept = JSON.parse(sessionStorage.getItem(key) ?? "null");
    sessionStorage.removeItem(key);
  } catch {
    return undefined;
  }
  const k = kept as PanelEdits | null;
  if (!k || typeof k !== "object" || !k.drafts || typeof k.drafts !== "object" || !k.bases || typeof k.bases !== "object") return undefined;
  const fields = Object.keys(k.drafts);
  if (!fields.length) return undefined;
  if (!quiet) toast(`What you typed in Record ${record} before signing in again is not saved yet`, { detail: `${fields.join(", ")}: press Save to save ${fields.length === 1 ? "it" : "them"}.`, ttlMs: 12_000 });
  return k;
}
