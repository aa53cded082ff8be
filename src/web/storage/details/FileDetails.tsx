/**
 * A file's details beside the listing (issue 22.4): size, type, sha256 (computed by the service
 * at upload), last modified, and every version, newest first, each downloadable, shareable by
 * a signed URL with a chosen lifetime, and restorable as the newest version (older ones kept).
 * Against an upstream without the versions extension only what the listing knows is shown.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "../../api-client";
import { toast } from "../../ui/toast";
import { Icon } from "../../ui/icons";
import { formatDateTime } from "../../ui/dates";
import { DEFAULT_LIFETIME, describeExpiry, expiresFromUrl, formatBytes, formatDate, LIFETIMES, typeLabel, versionFileName } from "../format.utils";
import { copyText } from "../links/LinkDialog";
import type { Entry } from "../listing.utils";
import { objectVersionsQueryOptions } from "../object-versions-query";
import { useRestoreVersionMutation } from "../object-restore-mutation";
import { signUrl } from "../object-sign-mutation";
import { objectUrl } from "../thumb.utils";
import { Waiting } from "../../ui/Waiting";

type FileEntry = Extract<Entry, { kind: "file" }>;

export interface FileDetailsProps {
  bucket: string;
  entry: FileEntry;
  versions: boolean;
  lifetimeChoice: boolean;
  canRestore: boolean;
  restoreBlocked: string;
  onClose(): void;
}

export function FileDetails(p: FileDetailsProps) {
  const { bucket, entry } = p;
  const q = useQuery({ ...objectVersionsQueryOptions(bucket, entry.key), enabled: p.versions });
  const restore = useRestoreVersionMutation(bucket);
  const [lifetime, setLifetime] = useState(DEFAULT_LIFETIME);
  const headRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headRef.current?.focus(), [entry.key]);
  const newest = q.data?.[0];
  const sha256 = newest?.sha256 ?? entry.etag?.replace(/"/g, "");

  /** `which` names the version as the list does ("Version 3 · date"), never by its internal versioned key. */
  const share = async (versionedKey: string, which: string) => {
    const issuedAt = Date.now();
    try {
      const url = await signUrl(bucket, versionedKey, p.lifetimeChoice ? lifetime : undefined);
      const copied = await copyText(url);
      const expires = describeExpiry(p.lifetimeChoice ? lifetime : DEFAULT_LIFETIME, issuedAt, expiresFromUrl(url));
      toast(copied ? "Signed URL copied" : "Signed URL ready", { kind: "success", detail: copied ? `${entry.key}, ${which}. ${expires}.` : url });
    } catch (e) {
      toast("Could not sign the URL", { kind: "error", detail: (e as Error).message });
    }
  };
  const onRestore = (versionedKey: string, when: string) =>
    restore.mutate(versionedKey, {
      onSuccess: () => toast("Version restored", { kind: "success", detail: `${entry.name} from ${when} is the newest version now; the others are kept (to go back, restore the one that was newest before: a version is not deleted here).` }),
      onError: (e) => toast("Could not restore the version", { kind: "error", detail: e.message }),
    });

  const gone = q.isError && q.error instanceof ApiError && q.error.status === 404;
  return (
    <aside className="st-details" aria-labelledby="st-details-title" onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), p.onClose())}>
      <header className="st-details-head">
        <h2 id="st-details-title" tabIndex={-1} ref={headRef}>
          {entry.name}
        </h2>
        <button type="button" className="btn-icon" aria-label="Close the details" title="Close (Esc)" onClick={p.onClose}>
          <Icon name="x" />
        </button>
      </header>
      <dl className="st-details-facts">
        <dt>Key</dt>
        <dd>
          <code>{entry.key}</code>
        </dd>
        <dt>Size</dt>
        <dd>{formatBytes(newest?.size ?? entry.size)}</dd>
        <dt>Type</dt>
        <dd>
          {typeLabel(newest?.contentType ?? entry.contentType, entry.key)} <span className="st-muted">({newest?.contentType ?? entry.contentType ?? "unknown"})</span>
        </dd>
        <dt>SHA-256</dt>
        <dd>
          {sha256 ? (
            <code className="st-sha" data-testid="details-sha256">
              {sha256}
            </code>
          ) : (
            "—"
          )}
        </dd>
        <dt>Last modified</dt>
        <dd>{formatDate(newest?.lastModified ?? entry.lastModified)}</dd>
      </dl>

      <section className="st-details-section" aria-labelledby="st-details-link">
        <h3 id="st-details-link">Share</h3>
        <div className="st-row">
          <label htmlFor="st-details-lifetime">Links expire after</label>
          <select id="st-details-lifetime" className="input input-sm" value={lifetime} onChange={(e) => setLifetime(Number(e.target.value))} disabled={!p.lifetimeChoice} title={p.lifetimeChoice ? undefined : "This upstream signs links for 1 hour only"}>
            {(p.lifetimeChoice ? LIFETIMES : LIFETIMES.filter((l) => l.seconds === DEFAULT_LIFETIME)).map((l) => (
              <option key={l.seconds} value={l.seconds}>
                {l.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-sm"
            // A file gone since (deleted or moved elsewhere) has nothing to sign: said, not sent
            // for the service's bare "no such version" (review 31b #4).
            aria-disabled={gone || undefined}
            title={gone ? `“${entry.key}” is no longer in ${bucket}` : undefined}
            onClick={() => (gone ? toast(`Nothing to share: “${entry.key}” is no longer in ${bucket}`, { detail: "It was deleted or moved since this panel opened." }) : share(newest?.versionedKey ?? entry.versionedKey ?? entry.key, newest ? `version ${q.data?.length ?? 1} · ${formatDate(newest.lastModified)}` : "newest version"))}
          >
            <Icon name="link" /> Copy signed URL
          </button>
        </div>
      </section>

      <section className="st-details-section" aria-labelledby="st-details-versions">
        <h3 id="st-details-versions">Versions{q.data ? ` (${q.data.length})` : ""}</h3>
        {!p.versions ? (
          <p className="st-muted">This upstream does not list a file's versions (no versions in its capabilities): only the newest is shown.</p>
        ) : q.isPending ? (
          <Waiting what="Loading versions" className="st-muted" />
        ) : q.isError && q.error instanceof ApiError && q.error.status === 404 ? (
          // Deleted or moved elsewhere (from another tab, or by someone else): not a failure of this panel.
          <p className="st-note" role="status">
            “{entry.key}” is no longer in {bucket}: it was deleted or moved.
          </p>
        ) : q.isError ? (
          <p className="st-error-text" role="alert">
            Could not list the versions: {q.error.message}
          </p>
        ) : (
          <ol className="st-versions" aria-label={`Versions of ${entry.name}, newest first`}>
            {q.data.map((v, i) => {
              // Numbered from the oldest, and to the second: versions made within a minute looked alike.
              const n = q.data.length - i;
              const when = formatDateTime(v.lastModified, { seconds: true });
              return (
                <li key={v.versionedKey} className="st-version">
                  <div className="st-version-what">
                    <strong>
                      Version {n} <span className="st-muted">· {when}</span>
                    </strong>
                    {i === 0 && <span className="st-badge">newest</span>}
                    <span className="st-muted">
                      {formatBytes(v.size)} · sha256 {v.sha256.slice(0, 12)}…
                    </span>
                  </div>
                  <div className="st-actions st-actions-compact">
                    <a className="btn btn-sm" href={objectUrl(bucket, v.versionedKey)} download={i === 0 ? entry.name : versionFileName(entry.name, n)} aria-label={`Download version ${n}`} title="Download this version">
                      <Icon name="download" />
                    </a>
                    <button type="button" className="btn btn-sm" aria-label={`Copy a signed URL to version ${n}`} title="Copy a signed URL to this version" onClick={() => share(v.versionedKey, `version ${n} · ${when}`)}>
                      <Icon name="link" />
                    </button>
                    {i > 0 && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        aria-label={`Restore version ${n} (${when})`}
                        aria-disabled={!p.canRestore || restore.isPending || undefined}
                        title={p.canRestore ? "Make this the newest version (the others are kept)" : p.restoreBlocked}
                        onClick={() => p.canRestore && !restore.isPending && onRestore(v.versionedKey, `version ${n} (${when})`)}
                      >
                        <Icon name="undo" /> Restore
                      </button>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        {p.versions && q.data && q.data.length > 1 && (
          // One version cannot be deleted alone (the service deletes a key with all its versions):
          // said here, where someone looks for it (review 38b #6), with what a signed URL means then.
          <p className="st-muted small">
            Older versions stay readable to anyone holding a signed URL to them until it expires. One version cannot be deleted alone: Delete removes the
            file with all its versions.
          </p>
        )}
      </section>
    </aside>
  );
}

