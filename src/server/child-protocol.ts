/**
 * The messages between the launcher and the service it runs as a child process, over the IPC
 * channel of child_process.fork. The key travels here, never in argv, the environment or a
 * file of ours, and neither side logs these messages.
 */
import type { ApiKeyEntry } from "./service/config";

/** Sent once, right after the fork: what the child's own environment cannot know. */
export interface StartMessage {
  type: "start";
  /** The port to listen on: SERVICE_PORT at first, then the port the first child got. */
  port: number;
  dataDir: string;
  apiKeys: ApiKeyEntry[];
  /** The proxy's origin + /api, so signed URLs go through the proxy. */
  publicBaseUrl?: string;
}

export type ChildMessage = { type: "ready"; url: string } | { type: "failed"; message: string };

export const isStartMessage = (m: unknown): m is StartMessage => (m as StartMessage | undefined)?.type === "start";

export function isChildMessage(m: unknown): m is ChildMessage {
  const t = (m as ChildMessage | undefined)?.type;
  return t === "ready" || t === "failed";
}
