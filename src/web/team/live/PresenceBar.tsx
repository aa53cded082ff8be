/**
 * Who else has this table or bucket open: initials, with name and email as the accessible label
 * and the tooltip (and the Record they have open, if any). This tab and its person are left out.
 */
import { useMemo, useRef } from "react";
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
  // Marks are made distinct among everyone seen here since this view opened, not only those
  // here now: a mark then changes when someone arrives, never when someone leaves (Eva's "EvE1"
  // became "EvE" when Eve left, which a new user's check found confusing).
  const seen = useRef(new Map<string, string>());
  for (const p of others) seen.current.set(p.email, p.name);
  const markOf = useMemo(() => {
    const everyone = [...seen.current].sort(([ea, na], [eb, nb]) => na.localeCompare(nb) || ea.localeCompare(eb));
    const marks = distinctInitials(everyone.map(([, name]) => name));
    return new Map(everyone.map(([email], i) => [email, marks[i]]));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `others` is what adds to `seen`
  }, [others]);
  if (!others.length) return null;
  const label = (p: LivePresence) => `${p.name} (${p.email})${p.record ? `, on Record ${p.record}` : ""}`;
  const more = others.slice(5);
  // Each mark takes the keyboard focus and shows its name then as on hover (a `title` shows
  // only to a mouse); its name is its accessible label.
  return (
    <ul className="presence" aria-label={`Also here: ${others.length} ${others.length === 1 ? "person" : "people"}`}>
      {others.slice(0, 5).map((p) => (
        <li key={p.email} className="presence-person">
          <span className="presence-mark" role="img" tabIndex={0} aria-label={label(p)} data-tip={label(p)}>
            {markOf.get(p.email)}
          </span>
        </li>
      ))}
      {more.length > 0 && (
        <li className="presence-more">
          <span className="presence-mark" role="img" tabIndex={0} aria-label={`and ${more.length} more: ${more.map(label).join("; ")}`} data-tip={more.map(label).join("\n")}>
            +{more.length}
          </span>
        </li>
      )}
    </ul>
  );
}
