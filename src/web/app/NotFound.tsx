/** An address the app has no page for (a mistyped or old link): say so, and offer the way back. */
import { Link, useRouterState } from "@tanstack/react-router";

export function NotFound() {
  const pathname = useRouterState({ select: (r) => r.location.pathname });
  return (
    <div className="center-state" role="alert">
      <h1>There is no page here</h1>
      <p className="muted">
        Baseboard has no page at <code>{pathname}</code>. The link may be mistyped or out of date; tables are under <code>/records/…</code> and buckets under{" "}
        <code>/storage/…</code>.
      </p>
      <Link to="/" className="btn btn-primary">
        Go to the start page
      </Link>
    </div>
  );
}
