/**
 * Edits that would be lost when the tab must leave for the sign-in page (the session ended):
 * cells whose save failed (they hold the typed value with Retry) and the cell editor still open.
 * They are kept in this tab's sessionStorage for their table, and put back as failed cells with
 * Retry when the person returns to it after signing in; nothing typed is lost to a sign-out.
 */
import type { RecordValue } from "../../../shared/records";
import { gridActions, useGridStore } from "./grid-store";

export const UNSAVED_AFTER_SIGN_IN = "your session ended before it was saved. Press Retry to save it now";

type Kept = [key: string, edit: { attempted: RecordValue; current: RecordValue | undefined }];

const storageKey = (db: string, table: string) => `bb-unsaved:${db}/${table}`;

/** The open editor's value (parsed; undefined when unchanged or not valid yet). Not state: nothing renders from it. */
let openDraft: Kept | undefined;

/**
 * The open editor's text as typed, and its cell. Unlike `openDraft` it stays when the editor goes
 * without a save or a cancel: its Record left the page under it (deleted by someone else), and
 * what was typed is shown to be copied, not dropped.
 */
let typed: { key: string; text: string } | undefined;

export function noteDraft(key: string, attempted: RecordValue | undefined, current: RecordValue | undefined, text?: string): void {
  openDraft = attempted === undefined ? undefined : [key, { attempted, current }];
  if (text !== undefined) typed = { key, text };
}

/** What was last typed into this cell's editor (`conflictKey`), if it was the last one open. */
export function typedInto(key: string): string | undefined {
  return typed?.key === key ? typed.text : undefined;
}

export function keepUnsaved(db: string, table: string): void {
  const kept: Kept[] = [...useGridStore.getState().conflicts].filter(([, c]) => c.failed !== undefined).map(([k, c]) => [k, { attempted: c.attempted, current: c.current }]);
  if (openDraft && !kept.some(([k]) => k === openDraft![0])) kept.push(openDraft);
  try {
    if (kept.length) sessionStorage.setItem(storageKey(db, table), JSON.stringify(kept));
  } catch {
    /* storage full or refused: nothing more can be done on the way out */
  }
}

/** A cell put back: its Record's key (as `pkId` writes it) and its Field. */
export interface RestoredCell {
  pkId: string;
  field: string;
}

/**
 * Puts kept edits of this table back as failed cells with Retry, once (they are removed), and
 * says which cells they are, so the person can be taken to them.
 */
export function restoreUnsaved(db: string, table: string): RestoredCell[] {
  let kept: unknown;
  try {
    kept = JSON.parse(sessionStorage.getItem(storageKey(db, table)) ?? "null");
    sessionStorage.removeItem(storageKey(db, table));
  } catch {
    return [];
  }
  if (!Array.isArray(kept)) return [];
  const restored: RestoredCell[] = [];
  for (const item of kept) {
    if (!Array.isArray(item) || typeof item[0] !== "string" || !item[1] || typeof item[1] !== "object" || !("attempted" in item[1])) continue;
    const edit = item[1] as Kept[1];
    gridActions.setConflict(item[0], { attempted: edit.attempted, current: edit.current ?? undefined, failed: UNSAVED_AFTER_SIGN_IN });
    // conflictKey is `${pkId}|${field}`: a Record's key may hold "|", a Field's key does not.
    const bar = item[0].lastIndexOf("|");
    restored.push({ pkId: item[0].slice(0, bar), field: item[0].slice(bar + 1) });
  }
  return restored;
}

/** "E00042 city, E00043 age": where the cells put back are (a Record's key as written, then the Field). */
export function restoredWhere(cells: readonly RestoredCell[]): string {
  const name = (id: string) => {
    try {
      return String(JSON.parse(id));
    } catch {
      return id;
    }
  };
  const shown = cells.slice(0, 5).map((c) => `${name(c.pkId)} ${c.field}`);
  return cells.length > 5 ? `${shown.join(", ")} and ${cells.length - 5} more` : shown.join(", ");
}
