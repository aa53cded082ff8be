import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { configQueryOptions } from "./config-get-query";

export function Home() {
  const { data } = useQuery(configQueryOptions());
  const first = data?.databases.find((d) => d.tables.length);
  return (
    <div className="home">
      <h1>Welcome to Baseboard</h1>
      {data?.notice && (
        <p className="notice" role="status">
          {data.notice}
        </p>
      )}
      {(data?.databases.some((d) => d.tables.length > 0) || (data?.buckets.length ?? 0) > 0) && (
        <p className="muted">Pick a table or a bucket on the left. Views (filter, sort, columns, page) live in the address bar, so you can bookmark and share them.</p>
      )}
      {first && (
        <Link className="btn btn-primary" to="/records/$db/$table" params={{ db: first.id, table: first.tables[0].slug }}>
          Open {first.id}.{first.tables[0].slug}
        </Link>
      )}
      <p className="muted small">
        Press <kbd>?</kbd> for keyboard shortcuts.
      </p>
    </div>
  );
}
