/**
 * The selection's count, total size and what can be done to all of it at once (issue 22.1).
 * Actions the bucket, the person or the upstream cannot do are left out or say why.
 */
import { useRef, useState } from "react";
import { formatBytes, LIFETIMES, DEFAULT_LIFETIME } from "../format.utils";
import { copyText } from "../links/LinkDialog";
import { toast } from "../../ui/toast";
import { Icon } from "../../ui/icons";
import { downloadZip, signedUrls } from "./bulk-actions-mutation";
import { zipNameOf } from "../../../shared/storage";
import { DeleteButton, type DeleteOffer } from "../bucket-browser/FileActions";
import { type SelectionSummary, selectionText } from "./selection.utils";

export interface SelectionBarProps {
  bucket: string;
  folder: string;
  summary: SelectionSummary;
  /** Upstream features: jobs (move/copy/folder delete), expiresIn (link lifetimes), list (zip of folders). */
  jobs: boolean;
  lifetimeChoice: boolean;
  /** The upstream signs many URLs in one request (signMany). */
  signMany: boolean;
  canDelete: DeleteOffer;
  canWrite: boolean;
  onMove(action: "move" | "copy"): void;
  onDelete(): void;
  onClear(): void;
}

export function SelectionBar(p: SelectionBarProps) {
  const { summary } = p;
  const [lifetime, setLifetime] = useState(DEFAULT_LIFETIME);
  const [busy, setBusy] = useState<"zip" | "links" | null>(null);
  const [signed, setSigned] = useState(0);
  const signing = useRef<AbortController | null>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  const items = [...summary.folders, ...summary.files.map((f) => f.key)];
  const noJobs = "Moving and copying run as server-side jobs, and this upstream has none (no jobs in its capabilities).";
  const folderDeleteBlocked = summary.folders.length > 0 && !p.jobs ? "Deleting a folder runs as a server-side job, and this upstream has none." : undefined;

  const zip = async () => {
    setBusy("zip");
    try {
      const last = p.folder.replace(/\/$/, "").split("/").pop();
      await downloadZip(p.bucket, items, zipNameOf(`${p.bucket}${last ? `-${last}` : ""}`));
      toast("Zip download started", { kind: "success", detail: `${selectionText(summary)} from ${p.bucket}, streamed as it is packed.` });
    } catch (e) {
      toast("Could not start the zip download", { kind: "error", detail: (e as Error).message });
    } finally {
      setBusy(null);
    }
  };
  const links = async () => {
    setBusy("links");
    setSigned(0);
    const stop = new AbortController();
    signing.current = stop;
    try {
      const text = await signedUrls(p.bucket, summary.files, p.lifetimeChoice ? lifetime : undefined, setSigned, stop.signal, p.signMany);
      const copied = await copyText(text);
      const life = LIFETIMES.find((l) => l.seconds === (p.lifetimeChoice ? lifetime : DEFAULT_LIFETIME))?.label ?? "1 hour";
      toast(copied ? `Copied ${summary.files.length.toLocaleString("en-US")} signed ${summary.files.length === 1 ? "URL" : "URLs"}, one per line` : "Could not use the clipboard", {
        kind: copied ? "success" : "error",
        detail: copied ? `Valid for ${life}.${summary.folders.length ? " Folders have no link of their own and were left out." : ""}` : "This page may not use the clipboard (it needs https or localhost).",
      });
    } catch (e) {
      if (stop.signal.aborted) toast("Signing cancelled", { kind: "info", detail: "Nothing was copied." });
      else toast("Could not sign the URLs", { kind: "error", detail: (e as Error).message });
    } finally {
      signing.current = null;
      setBusy(null);
      // Cancelled from its own button (gone now): back to Copy signed URLs, where it started, once
      // it is enabled again (review 52b #6: the focus fell to the listing's first file).
      if (stop.signal.aborted) requestAnimationFrame(() => copyButton.current?.focus());
    }
  };
  const total = summary.files.length;
  // Said to a screen reader in tenths, not at every file (review 51b #4: tens of times a second).
  const tenth = Math.floor((signed / Math.max(1, total)) * 10) * 10;

  return (
    <div className="st-selection" role="region" aria-label="Selection">
      <p className="st-selection-count" aria-live="polite" data-testid="selection-count">
        <strong>{selectionText(summary)}</strong> selected
        {summary.files.length > 0 && ` · ${formatBytes(summary.bytes)}${summary.folders.length ? " in files (folders not counted)" : ""}`}
      </p>
      <div className="st-selection-actions">
        <button type="button" className="btn btn-sm" onClick={zip} disabled={busy !== null}>
          <Icon name="download" /> Download zip
        </button>
        <span className="st-selection-links">
          {/* Held back while it works with aria-disabled, not disabled: pressed from the keyboard,
              it keeps the focus (review 53b #2: disabled, it dropped the focus to the page). */}
          <button
            ref={copyButton}
            type="button"
            className="btn btn-sm"
            onClick={() => busy === null && summary.files.length > 0 && void links()}
            aria-disabled={busy !== null || summary.files.length === 0 || undefined}
            aria-busy={busy === "links" || undefined}
            title={summary.files.length === 0 ? "Only files have signed URLs: select files" : busy === "links" ? "Signing…" : undefined}
          >
            <Icon name="link" /> Copy signed URLs
          </button>
          {busy === "links" && total > 20 && (
            <>
              <span className="st-muted" aria-hidden="true">
                Signing {signed.toLocaleString("en-US")} of {total.toLocaleString("en-US")}…
              </span>
              <span className="sr-only" role="status">
                Signing {total.toLocaleString("en-US")} URLs: {tenth}% done
              </span>
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => signing.current?.abort()}>
                Cancel
              </button>
            </>
          )}
          {p.lifetimeChoice && (
            <select className="input input-sm" aria-label="Signed URLs expire after" value={lifetime} onChange={(e) => setLifetime(Number(e.target.value))}>
              {LIFETIMES.map((l) => (
                <option key={l.seconds} value={l.seconds}>
                  {l.label}
                </option>
              ))}
            </select>
          )}
        </span>
        {p.canWrite && (
          <>
            <button type="button" className="btn btn-sm" aria-disabled={!p.jobs || undefined} title={p.jobs ? "Move to a folder" : noJobs} onClick={() => p.jobs && p.onMove("move")}>
              <Icon name="move" /> Move to…
            </button>
            <button type="button" className="btn btn-sm" aria-disabled={!p.jobs || undefined} title={p.jobs ? "Copy to a folder" : noJobs} onClick={() => p.jobs && p.onMove("copy")}>
              Copy to…
            </button>
          </>
        )}
        <DeleteButton label="Delete…" text="Delete…" title="Delete the selection" offer={p.canDelete === true && folderDeleteBlocked ? folderDeleteBlocked : p.canDelete} onDelete={p.onDelete} />
        <button type="button" className="btn btn-sm btn-ghost" onClick={p.onClear} title="Clear the selection (Esc)">
          Clear
        </button>
      </div>
    </div>
  );
}
