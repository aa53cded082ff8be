/** POST /api/presence: where this tab is (a table or bucket, the open Record, the cell being edited). */
import { apiFetch } from "../../api-client";
import { TAB_ID } from "./tab-id";

export interface PresenceBody {
  view: string | null;
  record?: string;
  editing?: { record: string; field: string };
}

export async function postPresence(body: PresenceBody): Promise<void> {
  // keepalive: the "I left" sent while the page unloads still goes out.
  await apiFetch("/api/presence", { method: "POST", json: { tab: TAB_ID, ...body }, keepalive: true }).catch(() => undefined);
}
