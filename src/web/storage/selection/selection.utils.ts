/**
 * Which entries of a listing are selected (issue 22.1): files by key, folders by their path
 * ending in "/". Pure: the bucket browser keeps the set and the anchor of the last click.
 */
import type { Entry } from "../listing.utils";

export const entryId = (e: Entry): string => (e.kind === "file" ? e.key : e.folder.endsWith("/") ? e.folder : `${e.folder}/`);

/** Click (or Space) on one entry's checkbox toggles it. */
export function toggle(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/**
 * Shift-click: every entry between the anchor and this one takes the state the clicked one is
 * given (selected, unless it already was), as in a file manager.
 */
export function selectRange(selected: ReadonlySet<string>, shown: readonly Entry[], anchor: string | null, id: string): Set<string> {
  const ids = shown.map(entryId);
  const to = ids.indexOf(id);
  const from = anchor === null ? -1 : ids.indexOf(anchor);
  if (to < 0) return new Set(selected);
  if (from < 0) return toggle(selected, id);
  const on = !selected.has(id);
  const next = new Set(selected);
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    if (on) next.add(ids[i]);
    else next.delete(ids[i]);
  }
  return next;
}

/** Ctrl/⌘+A and the header checkbox: everything shown, or nothing when all of it already is. */
export function toggleAll(selected: ReadonlySet<string>, shown: readonly Entry[]): Set<string> {
  const ids = shown.filter((e) => e.kind === "file" || !e.pending).map(entryId);
  return ids.length > 0 && ids.every((i) => selected.has(i)) ? new Set() : new Set(ids);
}

/** Keeps only what is still shown (after a delete, a move or another filter). */
export function prune(selected: ReadonlySet<string>, shown: readonly Entry[]): Set<string> {
  const ids = new Set(shown.map(entryId));
  const next = new Set([...selected].filter((i) => ids.has(i)));
  return next.size === selected.size ? (selected as Set<string>) : next;
}

export interface SelectionSummary {
  files: { key: string; versionedKey?: string; size?: number }[];
  folders: string[];
  bytes: number;
}

export function summarize(selected: ReadonlySet<string>, shown: readonly Entry[]): SelectionSummary {
  const out: SelectionSummary = { files: [], folders: [], bytes: 0 };
  for (const e of shown) {
    if (!selected.has(entryId(e))) continue;
    if (e.kind === "file") {
      out.files.push({ key: e.key, versionedKey: e.versionedKey, size: e.size });
      out.bytes += e.size ?? 0;
    } else out.folders.push(entryId(e));
  }
  return out;
}

/** "3 files and 1 folder", "1 file". */
export function selectionText(s: Pick<SelectionSummary, "files" | "folders">): string {
  const parts = [];
  if (s.files.length) parts.push(`${s.files.length.toLocaleString()} ${s.files.length === 1 ? "file" : "files"}`);
  if (s.folders.length) parts.push(`${s.folders.length.toLocaleString()} ${s.folders.length === 1 ? "folder" : "folders"}`);
  return parts.join(" and ") || "nothing";
}

/** Where a selected item lands when moved or copied into `folder` ("" = the bucket's root). */
export function destinationOf(item: string, folder: string): string {
  const isFolder = item.endsWith("/");
  const trimmed = isFolder ? item.slice(0, -1) : item;
  const name = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  const base = folder === "" || folder.endsWith("/") ? folder : `${folder}/`;
  return `${base}${name}${isFolder ? "/" : ""}`;
}

/** Why a bulk move or copy into `folder` cannot run, or undefined. */
export function destinationProblem(items: readonly string[], folder: string, action: "move" | "copy"): string | undefined {
  if (folder.startsWith("/")) return "Folder paths start without /.";
  if (folder.split("/").some((s, i, all) => s === "." || s === ".." || (s === "" && i !== all.length - 1))) return "That is not a folder path (no empty, . or .. parts).";
  const base = folder === "" || folder.endsWith("/") ? folder : `${folder}/`;
  for (const item of items) {
    if (item.endsWith("/") && base.startsWith(item)) return `The folder ${item} cannot go inside itself.`;
    if (action === "move" && destinationOf(item, base) === item) return `${item} is in that folder already.`;
  }
  return undefined;
}

/** Whether a key is gone after a bulk action that did `done` (files and folders ending in "/"): a copy leaves everything in place. */
export function goneAfter(action: "delete" | "move" | "copy", done: readonly string[], key: string): boolean {
  return action !== "copy" && done.some((item) => item === key || (item.endsWith("/") && key.startsWith(item)));
}
