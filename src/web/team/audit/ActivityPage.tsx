/**
 * Activity (admins): the whole audit trail, newest first, filtered by person, table or bucket,
 * kind and time (kept in the URL); an entry opens to its diff, with a link to the Record or file.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Waiting } from "../../ui/Waiting";
import { configQueryOptions, configResources } from "../../app/config-get-query";
import { meQueryOptions } from "../me-get-query";
import { peopleQueryOptions } from "../people-list-query";
import { ACTIVITY_KINDS, type ActivitySearch, droppedFilters, filtersOf, isReversedRange, knownKind, toAuditFilters, typedMoment, typedText } from "./activity-search.utils";
import { formatValue } from "../../records/values/values.utils";
import { activitySummary, askedRecord, KIND_TEXT, readableEndpoint, restoredText, versionText } from "./activity-summary.utils";
import { type AuditItem, auditQueryOptions, whoText } from "./audit-list-query";
import { formatWhen } from "./format-when";
import { olderEntries } from "./older-entries";
import "../team.css";
import "./audit.css";

const KINDS = ACTIVITY_KINDS;

interface Props {
  search: ActivitySearch;
  /** `replace`: in place of the address shown (opening an entry is no step to go Back over). */
  onSearch(s: ActivitySearch, opts?: { replace?: boolean }): void;
}

export function ActivityPage({ search: asked, onSearch }: Props) {
  const me = useQuery(meQueryOptions()).data;
  const config = useQuery(configQueryOptions()).data;
  const targets = useMemo(() => (config ? configResources(config) : undefined), [config]);
  // A table or bucket the reader may not filter by (hidden, or none) is said and left out.
  const search = useMemo(() => (asked.on && targets && !targets.includes(asked.on) ? { ...asked, on: undefined } : asked), [asked, targets]);
  const dropped = useMemo(() => droppedFilters(asked, targets), [asked, targets]);
  const filters = useMemo(() => toAuditFilters(search), [search]);
  // From after To: nothing can match; say so rather than ask.
  const reversed = isReversedRange(search);
  const q = useInfiniteQuery({ ...auditQueryOptions(filters, 50, SHOWN), enabled: !!me?.may.readActivity && !reversed });
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  // The entry shown open is in the address: Back from one of its links finds it open again.
  const open = asked.entry ?? null;
  const setOpen = (seq: number | null) => onSearch({ ...asked, entry: seq ?? undefined }, { replace: true });
  const [draft, setDraft] = useState<ActivitySearch>(() => filtersOf(search));
  // Come back to (Back, or a link naming it): the open entry in view, the focus on its toggle.
  const shownOpen = useRef(false);
  useEffect(() => {
    if (shownOpen.current || asked.entry === undefined || !items.some((it) => it.seq === asked.entry)) return;
    shownOpen.current = true;
    const toggle = document.querySelector<HTMLElement>(`[aria-controls="activity-entry-${asked.entry}"]`);
    toggle?.scrollIntoView({ block: "center" });
    toggle?.focus({ preventScroll: true });
  }, [asked.entry, items]);
  // A From or To box holding text that is no time: Apply waits for it (the box says what to write).
  const [badTime, setBadTime] = useState<{ from?: boolean; to?: boolean }>({});
  // The boxes are marked reversed only while they still hold the range applied.
  const stillReversed = reversed && !badTime.from && !badTime.to && draft.since === search.since && draft.until === search.until;
  // The person filter takes a whole email: the people there are offered as it is typed.
  const people = useQuery({ ...peopleQueryOptions(), enabled: me?.mode === "people" && me.may.readActivity }).data?.items;
  const peopleListId = useId();

  if (me && !me.may.readActivity) {
    return (
      <div className="team-page" role="alert">
        <h1>Activity</h1>
        <p>The activity log needs the admin role; your role is {me.role}. A Record's own history is in its record panel, under History.</p>
      </div>
    );
  }
  const set = (k: keyof ActivitySearch, v: string) => setDraft((d) => ({ ...d, [k]: v || undefined }));
  return (
    <div className="team-page activity">
      <h1>Activity</h1>
      <p className="muted">Every change made through Baseboard, newest first: who, when, what, and what it overwrote.</p>
      <form
        className="activity-filters"
        aria-label="Filter the activity"
        onSubmit={(e) => {
          e.preventDefault();
          if (badTime.from || badTime.to) {
            // To the box that says why (the focus stayed on Apply, and the list unfiltered).
            e.currentTarget.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus();
            return;
          }
          onSearch(filtersOf(draft));
        }}
      >
        <label>
          Person (whole email)
          <input className="input" type="search" value={draft.actor ?? ""} onChange={(e) => set("actor", e.target.value)} placeholder="anyone" list={people?.length ? peopleListId : undefined} />
          {people && (
            <datalist id={peopleListId}>
              {people.map((p) => (
                <option key={p.email} value={p.email}>
                  {p.name}
                </option>
              ))}
            </datalist>
          )}
        </label>
        <label>
          Table or bucket
          <select className="input" value={draft.on ?? ""} onChange={(e) => set("on", e.target.value)}>
            <option value="">all</option>
            {(targets ?? []).map((t) => (
              <option key={t} value={t}>
                {t.replace(":", " ")}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <select className="input" value={knownKind(draft.kind) ?? ""} onChange={(e) => set("kind", e.target.value)}>
            <option value="">all</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_TEXT[k]}
              </option>
            ))}
          </select>
        </label>
        {/* Marked reversed only while they still hold the range applied (an emptied To stayed red). */}
        <MomentInput label="From" end="from" instant={draft.since} onInstant={(v) => set("since", v ?? "")} onBad={(bad) => setBadTime((b) => ({ ...b, from: bad }))} reversed={stillReversed} />
        <MomentInput label="To" end="to" instant={draft.until} onInstant={(v) => set("until", v ?? "")} onBad={(bad) => setBadTime((b) => ({ ...b, to: bad }))} reversed={stillReversed} />
        <button type="submit" className="btn btn-primary">
          Apply
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setDraft({});
            onSearch({});
          }}
        >
          Clear
        </button>
      </form>
      {dropped.map((note) => (
        <p key={note} className="muted" role="status">
          {note}
        </p>
      ))}
      {reversed && (
        <p className="error-text" role="alert" id="activity-range-error">
          From ({formatWhen(search.since as string)}) is after To ({formatWhen(search.until as string)}): the range is reversed, so no entry can match. Swap them, or clear one.
        </p>
      )}
      {q.isError && (
        <p className="error-text" role="alert">
          Could not load the activity: {q.error.message}
        </p>
      )}
      {q.isPending && !!me?.may.readActivity && !reversed && <Waiting what="Loading the activity" />}
      {q.isSuccess && !reversed && items.length === 0 && (
        <p role="status">
          {Object.values(filtersOf(search)).some((v) => v !== undefined && v !== "")
            ? "No entries match these filters."
            : "Nothing has been changed through Baseboard yet: edits, imports, uploads and the rest appear here as they are made."}
          {search.actor && !search.actor.includes("@") ? " The person filter takes a whole email (the list offers them as you type), not part of one." : ""}
        </p>
      )}
      {items.length > 0 && !reversed && (
        <table className="activity-table" aria-label="Activity, newest first">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">On</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {items.map((it) => (
              <Entry key={it.seq} item={it} open={open === it.seq} onToggle={() => setOpen(open === it.seq ? null : it.seq)} />
            ))}
          </tbody>
        </table>
      )}
      {q.hasNextPage && (
        // Not disabled while loading (the focus fell to the page with it); then on the first entry loaded.
        <button type="button" className="btn" aria-disabled={q.isFetchingNextPage || undefined} onClick={() => olderEntries(q, items.length, ".activity-table [data-entry-toggle]")}>
          {q.isFetchingNextPage ? "Loading…" : "Older entries"}
        </button>
      )}
    </div>
  );
}

function target(it: AuditItem) {
  if (it.table) {
    const one = it.renamed ? `Record ${it.renamed.to} (was ${it.renamed.from})` : `Record ${it.keys[0]}`;
    if (!it.keyCount) {
      // The API gives an update's filter as `filter` (the `detail` is people's and jobs' alone).
      const asked = askedRecord({ filter: it.filter });
      return `${it.table}${asked ? ` · asked for ${asked}` : ""}`;
    }
    // An import names at most 10,000 of the Records it changed and added: its own counts say how many.
    const named = it.action === "import" && typeof it.inserted === "number" ? it.inserted + (it.changed ?? it.updated ?? 0) : it.keyCount;
    return `${it.table} · ${named === 1 && it.keyCount === 1 ? one : `${named.toLocaleString()} Records`}`;
  }
  if (it.bucket) return `${it.bucket}${it.file?.key ? ` · ${it.file.key}` : ""}`;
  // A change to a person is about them (their email is the entry's key).
  if (it.action === "people" && it.keys[0]) return it.keys[0];
  return readableEndpoint(it.endpoint);
}

function Entry({ item: it, open, onToggle }: { item: AuditItem; open: boolean; onToggle(): void }) {
  const detailId = `activity-entry-${it.seq}`;
  return (
    <>
      <tr className={open ? "open" : undefined}>
        <td className="activity-when">
          <button type="button" className="btn btn-sm btn-ghost" data-entry-toggle aria-expanded={open} aria-controls={detailId} onClick={onToggle}>
            <span aria-hidden="true">{open ? "▾" : "▸"}</span> <time dateTime={it.at}>{formatWhen(it.at)}</time>
          </button>
        </td>
        <td className="activity-who">{whoText(it)}</td>
        <td>
          {activitySummary(it) ?? KIND_TEXT[it.action] ?? it.action}
          {it.undoOf && <span className="muted small activity-undo"> ({it.undoOf})</span>}
        </td>
        <td className="activity-on">{target(it)}</td>
        <td>
          {it.outcome === "applied" && it.count === 0 ? "nothing matched" : (it.outcome ?? "")}
          {it.count ? ` (${it.count.toLocaleString()})` : ""}
        </td>
      </tr>
      {open && (
        <tr id={detailId}>
          <td colSpan={5}>
            <EntryDetail item={it} />
          </td>
        </tr>
      )}
    </>
  );
}

/** A value in a diff, numbers written as the grid writes them (21,714, not 21714). */
const text = (v: unknown) => (v === undefined ? "—" : v === null ? "NULL" : typeof v === "string" ? v : typeof v === "number" ? formatValue("number", v) : JSON.stringify(v));

/** Records listed in one entry's diff; the rest are counted ("and N more Records"). */
const SHOWN = 200;

/** "open", named for its Record: a list of them would otherwise read "open, open, open". */
const versionsText = (n: number) => `${n.toLocaleString()} version${n === 1 ? "" : "s"}`;

function RecordLink({ db, table, record }: { db: string; table: string; record: string }) {
  return (
    <Link to="/records/$db/$table" params={{ db, table }} search={{ record }} aria-label={`Open Record ${record}`}>
      open
    </Link>
  );
}

function EntryDetail({ item: it }: { item: AuditItem }) {
  const [db, table] = it.table?.split("/") ?? [];
  const folder = it.file?.key?.includes("/") ? it.file.key.slice(0, it.file.key.lastIndexOf("/") + 1) : "";
  // An insert has no before-images: its Records are its keys (the API sends the first 100).
  // An import names the Records it added too (the API sends the first 100; `inserted` counts them).
  // In key order: as the engine named them they read E01001, E01023, E01026…, as if the ones between were not added.
  const inserted = it.outcome !== "applied" ? [] : it.action === "insert" && !it.changes?.length ? it.keys.slice(0, SHOWN) : it.action === "import" ? [...(it.addedKeys ?? [])].sort(byKeyText) : [];
  const insertedCount = it.action === "import" ? (it.inserted ?? inserted.length) : it.keyCount;
  // A Record delete keeps the whole Records it removed (their keys in `keys`, in the same order).
  const removed = it.action === "delete-records" && Array.isArray(it.deleted) ? (it.deleted as Record<string, unknown>[]) : [];
  // A folder's move, copy or delete: the files it took, as listed when it started.
  const jobDetail =
    it.action === "storage-job"
      ? (it.detail as { files?: unknown; filesMore?: boolean; action?: unknown; from?: unknown; to?: unknown; replaced?: unknown; replacedMore?: boolean } | undefined)
      : undefined;
  const jobFiles = Array.isArray(jobDetail?.files) ? (jobDetail.files as string[]) : [];
  // A move with "Replace existing files": what was there before, every version of which it removed.
  const replaced = Array.isArray(jobDetail?.replaced) ? (jobDetail.replaced as { key: string; versions?: { versionedKey: string; size?: number }[] }[]) : [];
  // Where a job took its files from and put them: the folders, to open in the bucket browser.
  const folderOf = (k: unknown) => (typeof k === "string" ? k.slice(0, k.lastIndexOf("/") + 1) : undefined);
  const jobFolders = it.bucket && jobDetail ? ([["from", folderOf(jobDetail.from)], ...(jobDetail.action !== "delete" ? [["to", folderOf(jobDetail.to)]] : [])] as [string, string | undefined][]) : [];
  return (
    <div className="activity-diff">
      <p className="muted small">
        #{it.seq} · {readableEndpoint(it.endpoint)} · from {it.address ?? "unknown address"}
        {it.message ? ` · ${it.message}` : ""}
      </p>
      {it.changes && it.changes.length > 0 && (
        <ul className="history-list">
          {it.changes.slice(0, SHOWN).map((c) => {
            // After a change of its key the Record is found by the new one.
            const now = it.renamed && text(c.key) === it.renamed.from ? it.renamed.to : text(c.key);
            return (
            <li key={text(c.key)} className="history-item">
              <p className="history-who">
                Record <strong>{now}</strong>
                {now !== text(c.key) && <> (was {text(c.key)})</>} {db && <RecordLink db={db} table={table} record={now} />}
              </p>
              <dl className="history-fields">
                {Object.keys({ ...c.before, ...c.after }).map((f) => (
                  <div key={f}>
                    <dt>{f}</dt>
                    <dd>
                      <del>{text(c.before[f])}</del> <span aria-hidden="true">→</span>
                      <span className="visually-hidden">changed to</span> <ins>{text(c.after[f])}</ins>
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
            );
          })}
          {it.changes.length + (it.changesOmitted ?? 0) > SHOWN && <li className="muted">and {(it.changes.length + (it.changesOmitted ?? 0) - SHOWN).toLocaleString()} more Records</li>}
        </ul>
      )}
      {inserted.length > 0 && (
        <ul className="history-list" aria-label={`Records added (${insertedCount.toLocaleString()})`}>
          {inserted.map((k) => (
            <li key={k} className="history-item">
              <p className="history-who">
                Record <strong>{k}</strong> added {db && <RecordLink db={db} table={table} record={k} />}
              </p>
            </li>
          ))}
          {insertedCount > inserted.length && (
            <li className="muted">
              and {(insertedCount - inserted.length).toLocaleString()} more Records{it.action === "import" ? " (those listed are some of them, not the first in the file)" : ""}
            </li>
          )}
        </ul>
      )}
      {removed.length > 0 && (
        <ul className="history-list" aria-label={`Records deleted (${removed.length.toLocaleString()})`}>
          {removed.slice(0, SHOWN).map((r, i) => (
            <li key={it.keys[i] ?? i} className="history-item">
              <p className="history-who">
                Record <strong>{it.keys[i] ?? ""}</strong> deleted, as it was:
              </p>
              <dl className="history-fields mono small">
                {Object.entries(r).map(([f, v]) => (
                  <div key={f}>
                    <dt>{f}</dt>
                    <dd>{text(v)}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
          {removed.length > SHOWN && <li className="muted">and {(removed.length - SHOWN).toLocaleString()} more Records</li>}
        </ul>
      )}
      {!it.changes?.length && !inserted.length && !removed.length && db && it.keyCount === 1 && (
        <p>
          <Link to="/records/$db/$table" params={{ db, table }} search={{ record: it.keys[0] }}>
            Open Record {it.keys[0]}
          </Link>
        </p>
      )}
      {it.bucket && it.file?.key && (
        <p>
          {it.action === "delete" ? (
            <Link to="/storage/$bucket" params={{ bucket: it.bucket }} search={{ folder }}>
              Open the folder of {it.file.key}
            </Link>
          ) : (
            <Link to="/storage/$bucket" params={{ bucket: it.bucket }} search={{ folder, file: it.file.key }}>
              Open {it.file.key}
            </Link>
          )}
          {it.file.versions ? ` · ${versionsText(it.file.versions.length + (it.file.versionsOmitted ?? 0))} deleted` : ""}
          {it.file.size !== undefined ? ` · ${it.file.size.toLocaleString()} bytes` : ""}
          {it.file.restoredFrom && restoredText(it.file.restoredFrom) ? ` · ${restoredText(it.file.restoredFrom)}` : ""}
          {it.file.version ? ` · now ${versionText(it.file.version)}` : ""}
        </p>
      )}
      {it.file?.versions && (
        <ul className="mono small">
          {it.file.versions.map((v) => (
            <li key={v.versionedKey}>
              {v.versionedKey}
              {v.size !== undefined ? ` · ${v.size.toLocaleString()} bytes` : ""}
            </li>
          ))}
        </ul>
      )}
      {it.job && (
        <p>
          {it.job.state === "running" ? "The job was running when last recorded" : `The job ended: ${it.job.state}`}
          {typeof it.job.total === "number" ? ` · ${(it.job.done ?? 0).toLocaleString()} of ${it.job.total.toLocaleString()} files` : ""}
          {it.job.error ? ` · ${it.job.error}` : ""}
        </p>
      )}
      {it.bucket && jobFolders.some(([, f]) => f !== undefined) && (
        <p>
          {jobFolders
            .filter((x): x is [string, string] => x[1] !== undefined)
            .map(([side, f], i) => (
              <span key={side}>
                {i > 0 ? " · " : ""}
                <Link to="/storage/$bucket" params={{ bucket: it.bucket as string }} search={{ folder: f }}>
                  Open the {side === "from" ? "source" : "destination"} folder {f || "(the bucket's top)"}
                </Link>
              </span>
            ))}
        </p>
      )}
      {(replaced.length > 0 || jobDetail?.replacedMore) && (
        <>
          <p>
            Replaced, with every version (as they were when the job started): {replaced.length.toLocaleString()} file{replaced.length === 1 ? "" : "s"}
            {jobDetail?.replacedMore ? " (the first; there may be more)" : ""}
          </p>
          <ul className="mono small" aria-label="Files replaced by the move">
            {replaced.slice(0, SHOWN).map((r) => (
              <li key={r.key}>
                {r.key}
                {r.versions ? ` · ${versionsText(r.versions.length)} removed` : ""}
                {r.versions && r.versions.length > 0 && (
                  <ul>
                    {r.versions.map((v) => (
                      <li key={v.versionedKey}>
                        {v.versionedKey}
                        {v.size !== undefined ? ` · ${v.size.toLocaleString()} bytes` : ""}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
            {replaced.length > SHOWN && <li className="muted">and {(replaced.length - SHOWN).toLocaleString()} more</li>}
          </ul>
        </>
      )}
      {jobFiles.length > 0 && (
        <>
          <p>
            Files in the folder when the job started: {jobFiles.length.toLocaleString()}
            {jobDetail?.filesMore ? " (the first; there were more)" : ""}
          </p>
          <ul className="mono small" aria-label="Files in the folder when the job started">
            {jobFiles.slice(0, SHOWN).map((k) => (
              <li key={k}>{k}</li>
            ))}
            {jobFiles.length > SHOWN && <li className="muted">and {(jobFiles.length - SHOWN).toLocaleString()} more</li>}
          </ul>
        </>
      )}
      {it.beforeImagesUnreadable ? (
        <p className="muted small">
          What it overwrote{it.beforeImagesOmitted ? ` in ${it.beforeImagesOmitted.toLocaleString()} Records` : ""} was not kept: the service made the change but could not read the values before it (it ran out of memory beside it, for example).
        </p>
      ) : it.beforeImagesOmitted ? (
        <p className="muted small">Before-images of {it.beforeImagesOmitted.toLocaleString()} more Records were not kept (over 10,000 in one change).</p>
      ) : null}
      {it.addedOmitted ? <p className="muted small">{it.addedOmitted.toLocaleString()} more Records added are not named here (over 10,000 in one import); the count above is all of them.</p> : null}
      {(it.filter !== undefined || it.values !== undefined || it.records !== undefined || it.detail !== undefined || it.filterText !== undefined) && (
        <details>
          <summary>The request as recorded</summary>
          <pre className="mono small">{JSON.stringify({ filter: it.filter, values: it.values, records: it.records?.slice(0, 20), detail: it.detail }, null, 2)}</pre>
          {it.filterText !== undefined && <pre className="mono small">filter (nested too deep to lay out): {it.filterText.slice(0, 2000)}{it.filterText.length > 2000 ? "…" : ""}</pre>}
        </details>
      )}
    </div>
  );
}

/** A From or To time, typed as text in the viewer's zone (see typedMoment); wrong text is said, not dropped. */
function MomentInput(p: { label: string; end: "from" | "to"; instant: string | undefined; onInstant(v: string | undefined): void; onBad(bad: boolean): void; reversed: boolean }) {
  const [text, setText] = useState(() => typedText(p.instant));
  const id = useId();
  const read = typedMoment(text, p.end);
  // Cleared or changed from outside (Clear, a link): the box follows.
  useEffect(() => {
    const now = typedMoment(text, p.end);
    if (!now.ok || now.instant !== p.instant) setText(typedText(p.instant));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the instant changes from outside
  }, [p.instant]);
  const bad = !read.ok;
  return (
    <label>
      {p.label}
      <input
        className="input"
        type="text"
        inputMode="numeric"
        placeholder="YYYY-MM-DD HH:MM"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const r = typedMoment(e.target.value, p.end);
          p.onBad(!r.ok);
          if (r.ok) p.onInstant(r.instant);
        }}
        aria-invalid={bad || p.reversed || undefined}
        aria-describedby={bad ? id : p.reversed ? "activity-range-error" : undefined}
      />
      {bad && (
        <span id={id} className="error-text small" role="alert">
          A date (2026-11-27) or a date and time (2026-11-27 07:02), in your time zone.
        </span>
      )}
    </label>
  );
}

/** Record keys as text, in the order a person reads them ("E2" before "E10"). */
const byKeyText = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
