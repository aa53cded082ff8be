/** What one can do with a file: copy a link, download, move/copy, delete. Used in rows, cards and previews. */
import type { Entry } from "../listing.utils";
import { objectUrl } from "../thumb.utils";
import { Icon } from "../../ui/icons";
import { toast } from "../../ui/toast";

type FileEntry = Extract<Entry, { kind: "file" }>;

/**
 * Whether Delete is offered: true, offered; a string, shown but refused, saying why (the person's
 * role: they should know the action exists and who can do it); false, not offered at all (the
 * bucket or the upstream has no delete, which no role changes).
 */
export type DeleteOffer = boolean | string;

/** The Delete button of a file: refused with the reason, announced, when the offer is a string. */
export function DeleteButton({ label, offer, onDelete, compact, text = "Delete", title = "Delete" }: { label: string; offer: DeleteOffer; onDelete(): void; compact?: boolean; text?: string; title?: string }) {
  if (offer === false) return null;
  const blocked = typeof offer === "string" ? offer : undefined;
  return (
    <button
      type="button"
      className="btn btn-sm btn-danger-quiet"
      aria-label={label}
      aria-disabled={blocked ? true : undefined}
      title={blocked ?? title}
      onClick={() => (blocked ? toast(blocked, { kind: "error" }) : onDelete())}
    >
      <Icon name="trash" />
      {!compact && ` ${text}`}
    </button>
  );
}

export interface FileActionsProps {
  bucket: string;
  entry: FileEntry;
  canDelete: DeleteOffer;
  onLink(e: FileEntry): void;
  onDelete(e: FileEntry): void;
  compact?: boolean;
  /** Move, rename or copy (a server-side job); absent = not offered. */
  onMove?(key: string): void;
  /** Why moving is not possible here (no jobs upstream): the button stays, disabled, with this tooltip. */
  moveBlocked?: string;
  /** The details panel (size, sha256, versions); absent = not offered. */
  onDetails?(e: FileEntry): void;
}

/** The Move button of a file or folder: disabled with the reason when the upstream has no jobs. */
export function MoveButton({ label, blocked, onMove, compact }: { label: string; blocked?: string; onMove(): void; compact?: boolean }) {
  return (
    <button
      type="button"
      className="btn btn-sm"
      aria-label={`Move, rename or copy ${label}`}
      aria-disabled={blocked ? true : undefined}
      aria-keyshortcuts="F2"
      title={blocked ?? "Move, rename or copy (F2)"}
      onClick={() => !blocked && onMove()}
    >
      <Icon name="move" />
      {!compact && " Move"}
    </button>
  );
}

export function FileActions({ bucket, entry, canDelete, onLink, onDelete, compact, onMove, moveBlocked, onDetails }: FileActionsProps) {
  return (
    <div className={`st-actions ${compact ? "st-actions-compact" : ""}`}>
      {onDetails && (
        <button type="button" className="btn btn-sm" data-details-of={entry.key} aria-label={`Details of ${entry.name}`} title="Details and versions" onClick={() => onDetails(entry)}>
          <Icon name="info" />
          {!compact && " Details"}
        </button>
      )}
      <button type="button" className="btn btn-sm" aria-label={`Copy a link to ${entry.name}`} title="Copy link" onClick={() => onLink(entry)}>
        <Icon name="link" />
        {!compact && " Link"}
      </button>
      <a className="btn btn-sm" href={objectUrl(bucket, entry.versionedKey ?? entry.key)} download={entry.name} aria-label={`Download ${entry.name}`} title="Download">
        <Icon name="download" />
        {!compact && " Download"}
      </a>
      {onMove && <MoveButton label={entry.name} blocked={moveBlocked} onMove={() => onMove(entry.key)} compact={compact} />}
      <DeleteButton label={`Delete ${entry.name}`} offer={canDelete} onDelete={() => onDelete(entry)} compact={compact} />
    </div>
  );
}
