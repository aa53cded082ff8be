/** A list of sessions (mine, or a person's for admins) with an End button each. */
import { formatDateTime } from "../ui/dates";
import type { SessionInfo } from "./people-list-query";
import { browserOf } from "./sessions.utils";

/** In the app's one date-and-time format (as Activity and storage show times). */
export const formatWhen = Object.assign((iso: string | null) => (iso ? formatDateTime(iso) : "never"), { zone: "in your time zone" });

export function SessionsTable({ items, onEnd }: { items: SessionInfo[]; onEnd(id: string, current: boolean): void }) {
  if (items.length === 0) return <p className="muted">No open sessions.</p>;
  return (
    <table className="team-table">
      <thead>
        <tr>
          <th scope="col">Signed in</th>
          <th scope="col">Last seen</th>
          <th scope="col">From</th>
          <th scope="col">Browser</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((s) => (
          <tr key={s.id}>
            <td>
              {formatWhen(s.createdAt)} {s.current && <span className="badge">this one</span>}
            </td>
            <td>{formatWhen(s.lastSeenAt)}</td>
            <td>{s.address}</td>
            <td className="ellipsis" title={s.userAgent}>
              {browserOf(s.userAgent)}
            </td>
            <td>
              <button type="button" className="btn" data-end-session="" onClick={() => onEnd(s.id, s.current)} aria-label={`End the session signed in ${formatWhen(s.createdAt)}`}>
                End
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
