/** Databases with their tables, and buckets with their permission, from /api/config. */
import { toast } from "../ui/toast";
import { Link } from "@tanstack/react-router";
import type { AppConfig, BucketPermission } from "../../shared/meta";
import { Icon, LockIcon } from "../ui/icons";
import { SavedViewLinks } from "../records/saved-views/SavedViewLinks";

const permissionLabel: Record<BucketPermission, string> = {
  public: "public",
  limitedPublic: "limited",
  forbidden: "forbidden",
};

const permissionHelp: Record<BucketPermission, string> = {
  public: "Public: files readable without an API key",
  limitedPublic: "Limited public: API key and an authorized IP address required",
  forbidden: "Forbidden: files cannot be accessed through the API",
};

export function Sidebar({ config }: { config: AppConfig }) {
  return (
    <nav className="sidebar" id="sidebar" aria-label="Tables and buckets">
      {config.databases.map((db) => (
        <section key={db.id} className="nav-section">
          <h2 className="nav-heading">
            <span className="nav-heading-kind">Database</span> {db.id}
          </h2>
          <ul>
            {db.tables.map((t) => (
              <li key={t.slug}>
                <Link
                  to="/records/$db/$table"
                  params={{ db: db.id, table: t.slug }}
                  className="nav-item"
                  activeProps={{ className: "nav-item active", "aria-current": "page" }}
                >
                  <span className="nav-icon" aria-hidden="true">
                    <Icon name="table" size={14} />
                  </span>
                  {t.slug}
                </Link>
                <SavedViewLinks db={db.id} table={t.slug} />
              </li>
            ))}
            {db.tables.length === 0 && <li className="nav-empty">No tables</li>}
          </ul>
        </section>
      ))}
      <section className="nav-section">
        <h2 className="nav-heading">
          <span className="nav-heading-kind">Storage</span> buckets
        </h2>
        <ul>
          {config.buckets.map((b) =>
            b.permission === "forbidden" ? (
              <li key={b.name}>
                {/* Reachable from the keyboard, so its explanation is not mouse-only: focus shows
                    it under the entry (and reads it out), Enter repeats it as a toast. */}
                <button
                  type="button"
                  className="nav-item locked"
                  aria-disabled="true"
                  aria-describedby={`locked-why-${b.name}`}
                  title={permissionHelp.forbidden}
                  onClick={() => toast(`${b.name} cannot be opened`, { detail: permissionHelp.forbidden })}
                >
                  <span className="nav-icon" aria-hidden="true">
                    <LockIcon />
                  </span>
                  {b.name}
                  <span className="perm perm-forbidden" aria-label={`permission ${b.permission}`}>
                    {permissionLabel.forbidden}
                  </span>
                </button>
                <span className="sr-only" id={`locked-why-${b.name}`}>
                  {permissionHelp.forbidden}
                </span>
              </li>
            ) : (
              <li key={b.name}>
                <Link
                  to="/storage/$bucket"
                  params={{ bucket: b.name }}
                  search={{ folder: "" }}
                  className="nav-item"
                  activeProps={{ className: "nav-item active", "aria-current": "page" }}
                  title={`${permissionHelp[b.permission]} · access: ${b.access.join(", ") || "none"}`}
                >
                  <span className="nav-icon" aria-hidden="true">
                    <Icon name="bucket" size={14} />
                  </span>
                  {b.name}
                  <span className={`perm perm-${b.permission}`} aria-label={`permission ${b.permission}`}>
                    {permissionLabel[b.permission]}
                  </span>
                </Link>
              </li>
            ),
          )}
          {config.buckets.length === 0 && <li className="nav-empty">No buckets</li>}
        </ul>
      </section>
    </nav>
  );
}
