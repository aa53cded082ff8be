/**
 * What the upstream badge shows, from the proxy's /api/health and a probe of the upstream.
 * /api/health is read defensively: its body may be `{ok:true}` or report each part
 * (`{"service":"restarting"}`, `{"parts":{"service":"down"}}`…), so any part that says it is
 * restarting makes the state amber and any that says it is down (or `ok:false`) makes it red.
 */
export type UpstreamState = "up" | "restarting" | "down";

/** An HTTP answer, or "network" when none came. */
export type Answer = { status: number; body: unknown } | "network";

const DOWN = /^(down|unreachable|unresponsive|unavailable|error|failed|failing|stopped|dead|crashed)$/i;
const RESTARTING = /^(restarting|starting|recovering|degraded)$/i;

function stateOfBody(body: unknown): UpstreamState {
  let state: UpstreamState = "up";
  const stack: unknown[] = [body];
  let budget = 200;
  while (stack.length && budget-- > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (DOWN.test(v)) return "down";
      if (RESTARTING.test(v)) state = "restarting";
    } else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (o.ok === false) return "down";
      stack.push(...Object.values(o));
    }
  }
  return state;
}

export function healthState(answer: Answer): UpstreamState {
  if (answer === "network") return "down";
  const fromBody = stateOfBody(answer.body);
  if (answer.status === 503) return fromBody === "down" ? "down" : "restarting";
  if (answer.status >= 500) return "down";
  return fromBody;
}

/**
 * Which part a problem is in, so the badge blames the right one: no answer to /api/health means
 * Baseboard's own server (the proxy) is gone, whatever the upstream is; a report whose `store`
 * is down means Baseboard's own database (BASEBOARD_DATABASE_URL); anything else, the service.
 */
export type HealthPart = "proxy" | "store" | "service";

export function partOf(answer: Answer): HealthPart {
  if (answer === "network") return "proxy";
  const body = answer.body as { store?: unknown } | undefined;
  return body && typeof body === "object" && body.store === "down" ? "store" : "service";
}

/** The upstream probe (GET /api/config): any answer from the upstream, even a 4xx, means it is up. */
export function probeState(answer: Answer): UpstreamState {
  if (answer === "network") return "down";
  if (answer.status === 503) return "restarting";
  if (answer.status === 502 || answer.status === 504 || answer.status >= 500) return "down";
  return "up";
}

const rank: Record<UpstreamState, number> = { up: 0, restarting: 1, down: 2 };
export const worst = (...states: UpstreamState[]): UpstreamState => states.reduce((a, b) => (rank[b] > rank[a] ? b : a), "up");
