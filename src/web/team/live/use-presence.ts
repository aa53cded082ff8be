/**
 * Tells the others where this tab is: the table or bucket open, the Record in the panel, the
 * cell being edited. Sent when it changes and every 20 s (the proxy forgets a tab after 45 s);
 * "left" when the view closes or the page unloads. The proxy keeps one state per tab, so moving
 * to another view simply replaces it; the "left" of a closing view waits a moment and is dropped
 * when another view of this tab speaks first (two requests in flight may arrive out of order).
 */
import { useEffect, useRef } from "react";
import { type PresenceBody, postPresence } from "./presence-mutation";

let leaving: ReturnType<typeof setTimeout> | undefined;

export function usePresence(view: string | null, record?: string, editing?: { record: string; field: string }): void {
  const body: PresenceBody = { view, ...(record ? { record } : {}), ...(editing ? { editing } : {}) };
  const key = JSON.stringify(body);
  const last = useRef<string>("");
  useEffect(() => {
    if (!view) return;
    const send = () => {
      clearTimeout(leaving);
      void postPresence(JSON.parse(key) as PresenceBody);
    };
    if (last.current !== key) send();
    last.current = key;
    const beat = setInterval(send, 20_000);
    return () => clearInterval(beat);
  }, [key, view]);
  useEffect(() => {
    if (!view) return;
    const leaveNow = () => void postPresence({ view: null });
    window.addEventListener("pagehide", leaveNow);
    return () => {
      window.removeEventListener("pagehide", leaveNow);
      last.current = "";
      clearTimeout(leaving);
      leaving = setTimeout(leaveNow, 400);
    };
  }, [view]);
}
