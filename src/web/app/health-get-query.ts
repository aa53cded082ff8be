/**
 * The upstream's state for the badge: the proxy's /api/health, and (since that may describe
 * only the proxy) a probe of the upstream through /api/config. Polled often while something is
 * wrong, and at once when any request fails for want of an upstream (query-client.ts).
 */
import { queryOptions } from "@tanstack/react-query";
import { CLIENT_HEADER } from "../api-client";
import { type Answer, type HealthPart, healthState, partOf, probeState, type UpstreamState, worst } from "./health.utils";

export const healthKeys = { health: () => ["health"] as const };

async function ask(path: string, signal: AbortSignal): Promise<Answer> {
  try {
    const res = await fetch(path, { headers: { [CLIENT_HEADER]: "1" }, cache: "no-store", signal, credentials: "same-origin" });
    const body = await res.json().catch(() => undefined);
    return { status: res.status, body };
  } catch {
    return "network";
  }
}

/** A service that hangs answers nothing at all: after this long the probe counts as no answer. */
export const PROBE_TIMEOUT_MS = 4000;

/** What the badge shows: how things stand, and which part is to blame when they are not up. */
export interface Health {
  state: UpstreamState;
  part: HealthPart;
  /** The upstream is a hosted service (BASE_URL), not the local one the proxy restarts. */
  hosted?: boolean;
}

export async function fetchUpstreamState(signal: AbortSignal): Promise<Health> {
  const within = AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]);
  const answer = await ask("/api/health", within);
  const health = healthState(answer);
  const hosted = answer !== "network" && (answer.body as { service?: unknown } | undefined)?.service === "hosted";
  if (health === "down") return { state: health, part: partOf(answer), hosted };
  return { state: worst(health, probeState(await ask("/api/config", within))), part: health === "up" ? "service" : partOf(answer), hosted };
}

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: healthKeys.health(),
    queryFn: ({ signal }) => fetchUpstreamState(signal),
    refetchInterval: (q) => (q.state.data?.state === "up" ? 5000 : 1500),
    refetchIntervalInBackground: false,
    staleTime: 0,
    retry: false,
    meta: { handlesErrors: true },
  });
