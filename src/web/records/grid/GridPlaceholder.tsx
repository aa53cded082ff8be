/**
 * What the grid area shows instead of rows: loading (this page, or another page's rows kept
 * while this one loads), a page past the end, no match for the filter, or an empty table. Each
 * says what to do next.
 */
import { useQuery } from "@tanstack/react-query";
import { useLayoutEffect, useRef } from "react";
import { healthQueryOptions } from "../../app/health-get-query";
import { Waiting } from "../../ui/Waiting";
import { fmtInt } from "../values/values.utils";
import { noteLeaving, takeOver } from "./focus-handoff";

export type GridPlaceholderState =
  | { kind: "loading"; page?: number }
  | { kind: "past-end"; count: number; last: number }
  | { kind: "no-match" }
  | { kind: "empty-table" };

/**
 * `onAdd`: where Records may be added here. With no rows there is no blank row to type a new
 * Record into: the Add Record form is offered instead.
 */
export function GridPlaceholder({ state, page, onGoToPage, onEditFilter, onAdd }: { state: GridPlaceholderState; page: number; onGoToPage(page: number): void; onEditFilter(): void; onAdd?(): void }) {
  const add = onAdd && (
    <button type="button" className="btn" onClick={onAdd}>
      Add a Record
    </button>
  );
  const ref = useRef<HTMLDivElement>(null);
  const down = useQuery(healthQueryOptions()).data?.state === "down";
  // The grid's focus, when the grid went for this (every Record of the page deleted): to what
  // to do next, else here. And back to the grid when rows come again.
  useLayoutEffect(() => {
    const el = ref.current;
    takeOver(el?.querySelector<HTMLElement>("button") ?? el);
    return () => noteLeaving(el);
  }, []);
  return (
    <div className="center-state" role="status" ref={ref} tabIndex={-1}>
      {state.kind === "loading" ? (
        <Waiting what={state.page !== undefined ? `Loading page ${fmtInt(state.page)}` : "Loading records"} down={down} />
      ) : state.kind === "past-end" ? (
        <>
          <p>
            Page {page} is past the end ({fmtInt(state.count)} Records).
          </p>
          <button type="button" className="btn" onClick={() => onGoToPage(state.last)}>
            Go to the last page
          </button>
        </>
      ) : state.kind === "no-match" ? (
        <>
          <p>No Records match this filter.</p>
          <div className="center-state-actions">
            <button type="button" className="btn" onClick={onEditFilter}>
              Edit the filter
            </button>
            {add}
          </div>
        </>
      ) : (
        <>
          <p>This table has no Records yet.</p>
          {add}
        </>
      )}
    </div>
  );
}
