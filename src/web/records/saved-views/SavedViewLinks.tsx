/** The saved views of one table, under it in the sidebar. Opening one also restores its column widths. */
import { Link } from "@tanstack/react-router";
import { ViewIcon } from "../../ui/icons";
import { widthActions } from "../grid/column-widths-store";
import { useSavedViews } from "./saved-views-store";
import "./saved-views.css";

export function SavedViewLinks({ db, table }: { db: string; table: string }) {
  const views = useSavedViews((s) => s.views).filter((v) => v.db === db && v.table === table);
  if (!views.length) return null;
  return (
    <ul className="nav-views" aria-label={`Saved views of ${table}`}>
      {views.map((v) => (
        <li key={v.id}>
          <Link
            to="/records/$db/$table"
            params={{ db, table }}
            search={v.search}
            className="nav-item nav-view"
            activeOptions={{ includeSearch: true }}
            activeProps={{ className: "nav-item nav-view active", "aria-current": "page" }}
            onClick={() => widthActions.replace(`${db}/${table}`, v.widths)}
            title={`Saved view “${v.name}”`}
          >
            <span className="nav-icon" aria-hidden="true">
              <ViewIcon />
            </span>
            {v.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
