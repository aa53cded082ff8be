/** Icons for what cannot be shown as a thumbnail: a folder, or a page labelled with the type. */
import { type FileKind, fileKind } from "../format.utils";
import { extensionOf } from "../paths.utils";

const KIND_COLOR: Record<FileKind, string> = {
  image: "var(--st-kind-image)",
  pdf: "var(--st-kind-pdf)",
  text: "var(--st-kind-text)",
  video: "var(--st-kind-media)",
  audio: "var(--st-kind-media)",
  archive: "var(--st-kind-archive)",
  other: "var(--st-kind-other)",
};

export function FolderIcon({ size = 32 }: { size?: number }) {
  return (
    <svg className="st-icon" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <path d="M3 8a2 2 0 0 1 2-2h7l3 3h12a2 2 0 0 1 2 2v13a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" fill="var(--st-folder)" />
    </svg>
  );
}

export function FileIcon({ name, contentType, size = 32 }: { name: string; contentType?: string; size?: number }) {
  const kind = fileKind(contentType, name);
  const label = (extensionOf(name) || kind).slice(0, 4).toUpperCase();
  return (
    <svg className="st-icon" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <path d="M7 3h12l7 7v17a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z" fill="var(--st-page)" stroke="var(--st-page-edge)" />
      <path d="M19 3v7h7" fill="none" stroke="var(--st-page-edge)" />
      <rect x="3" y="16" width="22" height="9" rx="2" fill={KIND_COLOR[kind]} />
      <text x="14" y="23" textAnchor="middle" fontSize="6.5" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
        {label}
      </text>
    </svg>
  );
}
