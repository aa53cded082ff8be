import { breadcrumbs } from "../paths.utils";

export function Breadcrumbs({ bucket, folder, onFolderChange }: { bucket: string; folder: string; onFolderChange(f: string): void }) {
  const crumbs = breadcrumbs(bucket, folder);
  return (
    <nav className="st-crumbs" aria-label="Folder path">
      <ol>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={c.folder || "/"}>
              {last ? (
                <span aria-current="page">{c.label}</span>
              ) : (
                <button type="button" className="st-link-btn" onClick={() => onFolderChange(c.folder)}>
                  {c.label}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
