/**
 * Who else has this table or bucket open: initials, with name and email as the accessible label
 * and the tooltip (and the Record they have open, if any). This tab and its person are left out.
 */
import { useMemo } from "react";
import { useMay } from "../me-get-query";
import { useLiveStore } from "./live-store";
import { distinctInitials } from "./presence.utils";
import type { LivePresence } from "./live-types";
import { TAB_ID } from "./tab-id";
import "./live.css";

/** Others in this view, one entry per person (their tabs merged). */
export function useOthersHere(view: string): LivePresence[] {
  const presence = useLiveStore((s) => s.presence);
  const me = useMay().me;
  return useMemo(() => {
    const now = Date.now();
    const byPerson = new Map<string, LivePresence>();
    for (const p of presence.values()) {
      if (p.view !== view || p.tab === TAB_ID || p.until < now || (me && p.email === me.email)) continue;
      const had = byPerson.get(p.email);
      if (!had || (!had.record && p.record)) byPerson.set(p.email, p);
    }
    return [...byPerson.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [presence, view, me]);
}

export function PresenceBar({ view }: { view: string }) {
  const others = useOthersHere(view);
  if (!others.length) return null;
  const label = (p: LivePresence) => `${p.name} (${p.email})${p.record ? `, on Record ${p.record}` : ""}`;
  const marks = distinctInitials(others.slice(0, 5).map((p) => p.name));
  return (
    <ul className="presence" aria-label={`Also here: ${others.length} ${others.length === 1 ? "person" : "people"}`}>
      {others.slice(0, 5).map((p, i) => (
        <li key={p.email} className="presence-person" aria-label={label(p)} title={label(p)}>
          <span aria-hidden="true">{marks[i]}</span>
        </li>
      ))}
      {others.length > 5 && (
        <li className="presence-more" title={others.slice(5).map(label).join("\n")} aria-label={`and ${others.length - 5} more: ${others.slice(5).map(label).join("; ")}`}>
          +{others.length - 5}
        </li>
      )}
    </ul>
  );
}
