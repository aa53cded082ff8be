/**
 * The app's one live connection (mounted by the Shell): GET /api/events as an EventSource,
 * which reconnects by itself and resumes with Last-Event-ID. Changes go to apply-change.ts,
 * presence to the live store; a "reset" (away too long) refetches what is shown. Against an
 * upstream whose own changes are not streamed (no `events` capability: a hosted service), an
 * idle grid refreshes when the tab regains focus. A stream refused because the session ended
 * sends the tab to sign in.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { AppConfig } from "../../../shared/meta";
import { meQueryOptions } from "../me-get-query";
import { recordKeys } from "../../records/records-keys";
import { storageKeys } from "../../storage/storage-keys";
import { applyChange } from "./apply-change";
import { liveActions } from "./live-store";
import type { LiveChange, LivePresence } from "./live-types";
import { TAB_ID } from "./tab-id";

export function useLiveEvents(config: AppConfig | undefined, enabled: boolean): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!config || !enabled || typeof EventSource === "undefined") return;
    const pkOf = (t: string) => {
      const [db, slug] = t.split("/");
      return config.databases.find((d) => d.id === db)?.tables.find((x) => x.slug === slug)?.primaryKey;
    };
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const refetchShown = () => {
      void qc.invalidateQueries({ queryKey: recordKeys.all(), refetchType: "active" });
      void qc.invalidateQueries({ queryKey: storageKeys.all, refetchType: "active" });
    };
    // The id of the newest frame seen: the browser sends it when it reconnects by itself; a new
    // EventSource (made below after an error answer) has none, so it is given in the address.
    let lastId = "";
    const seen = (m: Event) => {
      if ((m as MessageEvent).lastEventId) lastId = (m as MessageEvent).lastEventId;
    };
    const connect = () => {
      source = new EventSource(lastId ? `/api/events?lastEventId=${encodeURIComponent(lastId)}` : "/api/events");
      source.addEventListener("open", () => liveActions.setConnected(true));
      for (const name of ["ready", "change", "reset"]) source.addEventListener(name, seen);
      source.addEventListener("change", (m) => {
        try {
          applyChange(qc, JSON.parse((m as MessageEvent<string>).data) as LiveChange, pkOf, TAB_ID);
        } catch {
          /* a malformed event is skipped, not fatal */
        }
      });
      source.addEventListener("presence", (m) => {
        try {
          liveActions.presence(JSON.parse((m as MessageEvent<string>).data) as LivePresence);
        } catch {
          /* skipped */
        }
      });
      source.addEventListener("reset", refetchShown);
      source.addEventListener("error", () => {
        liveActions.setConnected(false);
        // The browser retries by itself unless the answer was an error (401, 503): then it gives
        // up, and we try again a little later ourselves. An EventSource does not say which: ask
        // once, so that a session that has ended sends the tab to sign in (the API client does).
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          clearTimeout(retry);
          retry = setTimeout(connect, 10_000);
          void qc.fetchQuery({ ...meQueryOptions(), staleTime: 0 }).catch(() => undefined);
        }
      });
    };
    connect();
    const expire = setInterval(() => liveActions.expirePresence(), 5_000);
    const onFocus = () => {
      if (!config.capabilities.events) refetchShown();
    };
    window.addEventListener("focus", onFocus);
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(expire);
      window.removeEventListener("focus", onFocus);
      source?.close();
      liveActions.setConnected(false);
    };
  }, [config, enabled, qc]);
}
