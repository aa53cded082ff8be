/**
 * Where the browser is: the bucket (the page's heading, named once) and the folders down to the
 * one on screen; each but the last leads back up.
 */
import { breadcrumbs } from "../paths.utils";
import type { DragToFolder } from "./drag-to-folder";

export function Breadcrumbs({ bucket, folder, onFolderChange, drag }: { bucket: string; folder: string; onFolderChange(f: string): void; drag?: DragToFolder }) {
  const crumbs = breadcrumbs(bucket, folder);
  return (
    <nav className="st-crumbs" aria-label="Folder path">
      <ol>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          // Entries dragged onto a folder above this one move up into it.
          const drop = last || !drag ? undefined : drag.target(c.folder);
          const crumb = last ? (
            <span aria-current="page">{c.label}</span>
          ) : (
            <button type="button" className={`st-link-btn ${drop?.over ? "st-drop-target" : ""}`} onClick={() => onFolderChange(c.folder)} {...drop?.props}>
              {c.label}
            </button>
          );
          // The whole name on hover, where the path gives way to the actions (ellipsis).
          return (
            <li key={c.folder || "/"} title={c.label}>
              {i === 0 ? <h1 className="ws-title">{crumb}</h1> : crumb}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
