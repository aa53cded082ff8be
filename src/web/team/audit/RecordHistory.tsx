/**
 * The record panel's History tab: each version of the Record from the audit trail (who, when,
 * the Fields that changed, before → after), newest first, with "Restore this version" as one
 * conflict-checked, undoable update that the trail records like any other.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { FieldType, RecordRow, RecordValue } from "../../../shared/records";
import type { GridColumn } from "../../records/grid/columns.utils";
import { invalidateTableRecords } from "../../records/records-update-mutation";
import { undoLast } from "../../records/undo/use-undo";
import { formatValue } from "../../records/values/values.utils";
import { toast } from "../../ui/toast";
import { useMay } from "../me-get-query";
import { teamKeys } from "../team-keys";
import { auditQueryOptions } from "./audit-list-query";
import { formatWhen } from "./format-when";
import { olderEntries } from "./older-entries";
import { recordVersions } from "./record-history.utils";
import { restoreVersion } from "./restore-version";
import { liveActions, rowKey } from "../live/live-store";
import { byWhom, lastChangeOf } from "./last-change-get-query";
import "../team.css";
import "./audit.css";
import { Waiting } from "../../ui/Waiting";

interface Props {
  db: string;
  table: string;
  pkField: string;
  recordText: string;
  row: RecordRow | undefined;
  columns: readonly GridColumn[];
}

const VERB = { changed: "changed", added: "added the Record", deleted: "deleted the Record", maybe: "updated Records by filter, perhaps this one,", renamed: "changed the key", renamedAway: "changed the key" } as const;

export function RecordHistory({ db, table, pkField, recordText, row, columns }: Props) {
  const qc = useQueryClient();
  const { me, table: mayOn } = useMay();
  const may = mayOn(db, table);
  // Said once, visibly: a disabled button's title reaches neither the keyboard nor a screen reader.
  const readOnly = me && !may.write ? `You can read this history; restoring a version needs edit access to this table. ${may.why("change")}` : undefined;
  const noteId = `history-note-${db}-${table}`;
  const q = useInfiniteQuery(auditQueryOptions({ table: `${db}/${table}`, record: recordText }, 50));
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  const versions = useMemo(() => recordVersions(items, recordText, pkField, !q.hasNextPage), [items, recordText, pkField, q.hasNextPage]);
  const types = useMemo(() => Object.fromEntries(columns.map((c) => [c.key, c.field.type])) as Record<string, FieldType>, [columns]);
  const [busy, setBusy] = useState<number | null>(null);
  const show = (field: string, v: RecordValue | undefined) => (v === undefined ? "—" : formatValue(types[field] ?? "text", v));

  /** `version`: which, as people read it ("to the version of …", "as it was before …"). */
  const restore = async (seq: number, version: string, target: Record<string, RecordValue>) => {
    if (!row) return;
    setBusy(seq);
    try {
      const out = await restoreVersion({ db, table, pkField, row, target, types, label: `Restore ${recordText} ${version}` });
      if (out.kind === "nothing") toast(`Record ${recordText} is already as in that version.`);
      else if (out.kind === "conflict") {
        const who = await lastChangeOf(db, table, recordText);
        toast(`Not restored: Record ${recordText} was changed${byWhom(who)}`, { kind: "error", detail: "It no longer holds the values shown here. Look at the newest version, then restore again.", ttlMs: 12_000 });
      } else {
        toast(`Restored Record ${recordText} ${version}`, { kind: "success", detail: `${out.fields.join(", ")} set back.`, action: undoLast() });
        // This tab wrote the Record last: a notice of someone else's change no longer says what it holds.
        liveActions.clearChangedUnder(rowKey(`${db}/${table}`, recordText));
      }
    } catch (e) {
      toast(`Not restored: ${(e as Error).message}`, { kind: "error" });
    } finally {
      setBusy(null);
      await Promise.all([invalidateTableRecords(qc, db, table), qc.invalidateQueries({ queryKey: teamKeys.auditAll() })]);
    }
  };

  if (q.isPending) return <Waiting what="Loading the history" />;
  if (q.isError) return <p className="error-text" role="alert">Could not load the history: {q.error.message}</p>;
  if (!versions.length)
    return (
      <p className="muted" role="status">
        No changes to Record {recordText} have been recorded through Baseboard{q.hasNextPage ? " in the newest entries" : ""}.
      </p>
    );
  return (
    <div className="history">
      {readOnly && (
        <p id={noteId} className="muted small">
          {readOnly}
        </p>
      )}
      <ol className="history-list" aria-label={`Versions of Record ${recordText}, newest first`}>
        {versions.map((v) => (
          <li key={v.seq} className="history-item">
            {v.what === "original" ? (
              <p className="history-who">
                As it was before the first recorded change (<time dateTime={v.at}>{formatWhen(v.at)}</time>)
              </p>
            ) : (
              <p className="history-who">
                <strong>{v.actor}</strong> {v.what === "maybe" && v.action === "import" ? "imported Records, perhaps this one," : VERB[v.what]}
                {v.key && (
                  <>
                    {" "}
                    from <code>{v.key.from}</code> to <code>{v.key.to}</code>
                  </>
                )}{" "}
                <time dateTime={v.at}>{formatWhen(v.at)}</time>
                {v.action === "import" && <span className="muted"> (import)</span>}
              </p>
            )}
            {v.fields.length > 0 && (
              <dl className="history-fields">
                {v.fields.map((f) => (
                  <div key={f.field}>
                    <dt>{f.field}</dt>
                    <dd>
                      {(v.what === "changed" || v.what === "renamed") && (
                        <>
                          <del>{show(f.field, f.before)}</del> <span aria-hidden="true">→</span>
                          <span className="visually-hidden">changed to</span>{" "}
                        </>
                      )}
                      <ins>{show(f.field, f.after)}</ins>
                    </dd>
                  </div>
                ))}
              </dl>
            )}
            {(v.what === "maybe" || v.what === "renamedAway") && <p className="muted small">{v.why}</p>}
            {(v.what === "changed" || v.what === "renamed" || v.what === "added") && !v.target && v.why === "This is the current version." ? (
              <span className="muted small">Current version</span>
            ) : (v.what === "changed" || v.what === "renamed" || v.what === "original") && (
              <div className="history-restore">
                <button
                  type="button"
                  className="btn btn-sm"
                  // Never `disabled` while a restore runs: a disabled button drops the focus to the
                  // page, where Esc no longer reaches the panel (a keyboard user was stranded).
                  aria-disabled={!v.target || !may.write || busy !== null || !row ? true : undefined}
                  aria-busy={busy === v.seq || undefined}
                  // Named by its version: a dozen "Restore this version" could not be told apart.
                  aria-label={`Restore this version (${v.what === "original" ? "before the first recorded change, " : `${v.actor}, `}${formatWhen(v.at)})`}
                  aria-describedby={readOnly ? noteId : !v.target && v.why ? `history-why-${v.seq}` : undefined}
                  title={!may.write ? may.why("change") : (v.why ?? "Set every Field changed since back to its value in this version (one update, undoable)")}
                  onClick={() => {
                    if (busy !== null || !row) return;
                    if (!may.write) toast(may.why("change"));
                    else if (!v.target) toast(v.why ?? "Nothing to restore.");
                    else void restore(v.seq, v.what === "original" ? `as it was before ${whenForOthers(v.at)}` : `to the version of ${whenForOthers(v.at)}`, v.target);
                  }}
                >
                  {busy === v.seq ? "Restoring…" : "Restore this version"}
                </button>
                {!readOnly && !v.target && v.why && (
                  <span id={`history-why-${v.seq}`} className="muted small">
                    {v.why}
                  </span>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      {q.hasNextPage && (
        <button type="button" className="btn btn-sm" aria-disabled={q.isFetchingNextPage || undefined} onClick={() => olderEntries(q, versions.length, ".history-list > li")}>
          {q.isFetchingNextPage ? "Loading…" : "Older entries"}
        </button>
      )}
    </div>
  );
}

/**
 * A moment in words that others read too (the restore's label is kept in the activity log): with
 * its zone, as they may be elsewhere (review 57b #3: "10:27:58 PM" in Auckland read as no version
 * in a UTC browser).
 */
function whenForOthers(at: string): string {
  const zone = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" }).formatToParts(new Date(at)).find((p) => p.type === "timeZoneName")?.value;
  return zone ? `${formatWhen(at)} ${zone}` : formatWhen(at);
}
