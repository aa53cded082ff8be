/** The Activity page's filters as URL search params (shareable), validated. */
export interface ActivitySearch {
  actor?: string;
  /** "table:<db>/<slug>" or "bucket:<name>". */
  on?: string;
  kind?: string;
  since?: string;
  until?: string;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

export function sanitizeActivitySearch(raw: Record<string, unknown>): ActivitySearch {
  const on = str(raw.on);
  return {
    actor: str(raw.actor),
    on: on && /^(table:[^/\s]+\/[^/\s]+|bucket:\S+)$/.test(on) ? on : undefined,
    kind: str(raw.kind),
    since: str(raw.since),
    until: str(raw.until),
  };
}

/** The API's filters from the page's: a datetime-local value ("2026-11-25T10:00") is local time. */
export function toAuditFilters(s: ActivitySearch): Record<string, string | undefined> {
  const iso = (v: string | undefined) => {
    if (!v) return undefined;
    const t = new Date(v);
    return Number.isNaN(t.getTime()) ? v : t.toISOString();
  };
  return {
    actor: s.actor,
    table: s.on?.startsWith("table:") ? s.on.slice(6) : undefined,
    bucket: s.on?.startsWith("bucket:") ? s.on.slice(7) : undefined,
    kind: s.kind,
    since: iso(s.since),
    until: iso(s.until),
  };
}
