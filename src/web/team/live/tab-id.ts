/**
 * This browser tab's id: sent with every request (x-baseboard-tab) so the live stream can tell a
 * tab its own changes apart from everyone else's, and used as the presence key.
 */
const KEY = "baseboard.tab";

function make(): string {
  const fresh = Math.random().toString(36).slice(2, 10) + Date.now().toString(36).slice(-4);
  try {
    // sessionStorage is per tab and survives a reload of that tab.
    const kept = sessionStorage.getItem(KEY);
    if (kept && /^[\w-]{1,64}$/.test(kept)) return kept;
    sessionStorage.setItem(KEY, fresh);
  } catch {
    /* private mode: a fresh id per load is fine */
  }
  return fresh;
}

export const TAB_ID = typeof window === "undefined" ? "server" : make();
export const TAB_HEADER = "x-baseboard-tab";
