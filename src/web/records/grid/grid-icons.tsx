/** Icons of the grid features, drawn like ui/icons.tsx (same box and stroke). */
const base = { width: 14, height: 14, viewBox: "0 0 16 16", fill: "none", stroke: "currentColor", strokeWidth: 1.6, "aria-hidden": true } as const;

export function ExpandIcon() {
  return (
    <svg {...base}>
      <path d="M9.5 2.5h4v4M13.5 2.5 9 7M6.5 13.5h-4v-4M2.5 13.5 7 9" />
    </svg>
  );
}

export function ViewIcon() {
  return (
    <svg {...base}>
      <path d="M2.5 4h11M2.5 8h11M2.5 12h7" />
    </svg>
  );
}
