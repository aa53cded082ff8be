/**
 * The app's one icon set: small stroke icons for both workspaces (no emoji: not every system has
 * an emoji font). `Icon` draws one by name; the named components are kept for existing callers.
 */
const base = { width: 14, height: 14, viewBox: "0 0 16 16", fill: "none", stroke: "currentColor", strokeWidth: 1.6, "aria-hidden": true } as const;

export function LockIcon({ open = false }: { open?: boolean }) {
  return (
    <svg {...base}>
      <rect x="3" y="7" width="10" height="7" rx="1.5" />
      <path d={open ? "M5.5 7V5a2.5 2.5 0 0 1 4.9-.7" : "M5.5 7V5a2.5 2.5 0 0 1 5 0v2"} />
    </svg>
  );
}

export function PaperclipIcon() {
  return (
    <svg {...base}>
      <path d="M10.5 4.5 5.8 9.2a1.4 1.4 0 0 0 2 2l5-5a2.8 2.8 0 0 0-4-4l-5 5a4.2 4.2 0 0 0 6 6l4.2-4.2" />
    </svg>
  );
}

export function CopyIcon() {
  return (
    <svg {...base}>
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 3.5v-.5a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h.5" />
    </svg>
  );
}

/** Opens a Record in its panel (the grid's row button, the panel's own fields). */
export function ExpandIcon() {
  return (
    <svg {...base}>
      <path d="M9.5 2.5h4v4M13.5 2.5 9 7M6.5 13.5h-4v-4M2.5 13.5 7 9" />
    </svg>
  );
}

/** A saved view of a table. */
export function ViewIcon() {
  return (
    <svg {...base}>
      <path d="M2.5 4h11M2.5 8h11M2.5 12h7" />
    </svg>
  );
}

/** 24-unit stroke paths, drawn by Icon. */
const PATHS = {
  info: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 11v6M12 7.5h.01",
  link: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  upload: "M12 20V9M7 14l5-5 5 5M5 4h14",
  trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6",
  move: "M4 12h15M14 6l6 6-6 6",
  folderPlus: "M3 7a2 2 0 0 1 2-2h5l2 2h7a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2zM12 11v6M9 14h6",
  list: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01",
  grid: "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z",
  left: "M15 5l-7 7 7 7",
  right: "M9 5l7 7-7 7",
  x: "M6 6l12 12M18 6L6 18",
  retry: "M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4",
  lock: "M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3",
  copy: "M9 9h11v11H9zM5 15H4V4h11v1",
  open: "M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5",
  home: "M4 11l8-7 8 7M6 9.5V20h12V9.5",
  undo: "M9 14L4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
  redo: "M15 14l5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13",
  refresh: "M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7",
  first: "M17 6l-6 6 6 6M7 6v12",
  last: "M7 6l6 6-6 6M17 6v12",
  table: "M4 5h16v14H4zM4 10h16M4 15h16M10 10v9",
  calendar: "M4 6h16v14H4zM4 10h16M8 3v5M16 3v5",
  menu: "M4 6h16M4 12h16M4 18h16",
  bucket: "M4 7h16l-1.5 12.5a1 1 0 0 1-1 .5h-11a1 1 0 0 1-1-.5zM4 7l1.5-3h13L20 7M9.5 11h5",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={PATHS[name]} />
    </svg>
  );
}
