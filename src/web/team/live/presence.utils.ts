/** Presence marks that tell people apart (pure). */
import { initials } from "../AccountMenu";

/**
 * Initials for each name, made longer where two would be the same: "Ed Editor" and "Eve Editor"
 * were both "EE" side by side (a new user's check); they are "EdE" and "EvE". Still the same
 * ("Ann Lee", "Ann Lee"): numbered.
 */
export function distinctInitials(names: readonly string[]): string[] {
  const short = names.map(initials);
  const longer = names.map((name, i) => {
    if (short.filter((s) => s === short[i]).length === 1) return short[i];
    const words = name.split(/[\s@._-]+/).filter(Boolean);
    if (words.length === 0) return short[i];
    const first = words[0].slice(0, 2);
    return `${first[0].toUpperCase()}${first.slice(1).toLowerCase()}${words.length > 1 ? words[words.length - 1][0].toUpperCase() : ""}`;
  });
  const seen = new Map<string, number>();
  return longer.map((s) => {
    const n = (seen.get(s) ?? 0) + 1;
    seen.set(s, n);
    return longer.filter((t) => t === s).length > 1 ? `${s}${n}` : s;
  });
}
