/**
 * GET /api/health: which part of Baseboard is answering. Pure: the state of the embedded
 * service comes from its supervisor (launcher/supervisor.ts), passed in as a ServiceStatus.
 *
 *   200 {"ok":true,"proxy":"up","service":"up","restarts":0}
 *   503 {"ok":true,"proxy":"up","service":"restarting","restarts":1}    (amber: coming back)
 *   503 {"ok":false,"proxy":"up","service":"down","restarts":10}        (red: gave up)
 *   200 {"ok":true,"proxy":"up","service":"hosted","restarts":0}        (BASE_URL: not watched here)
 *   503 {"ok":true,"proxy":"up","service":"up","restarts":0,"store":"down"} (BASEBOARD_DATABASE_URL
 *        does not answer: every change is refused until it does)
 *
 * `ok` is false only when a part is down and will not come back by itself; while the service
 * starts or restarts the status is 503 but `ok` stays true (the web app shows amber, not red).
 */
import type { OutgoingHttpHeaders } from "node:http";
import { errorBody, type ErrorBody } from "../../shared/errors";

/** What the supervisor says of the embedded service; "hosted" when BASE_URL is set. */
/** unresponsive: running but not answering its liveness probe (hung); restarted if it stays so. */
export type ServiceState = "starting" | "up" | "restarting" | "unresponsive" | "down" | "stopped" | "hosted";

export interface ServiceStatus {
  state(): ServiceState;
  /** Restarts since Baseboard started (crashes it recovered from). */
  restarts(): number;
}

export interface HealthReport {
  ok: boolean;
  proxy: "up";
  service: ServiceState;
  restarts: number;
  /** Baseboard's own PostgreSQL store (BASEBOARD_DATABASE_URL), when there is one. */
  store?: "up" | "down";
}

export const HOSTED: ServiceStatus = { state: () => "hosted", restarts: () => 0 };

const serving = (state: ServiceState) => state === "up" || state === "hosted";

export function healthReport(service: ServiceStatus, store?: "up" | "down"): { status: number; body: HealthReport } {
  const state = service.state();
  const ok = state !== "down" && state !== "stopped";
  const status = serving(state) && store !== "down" ? 200 : 503;
  return { status, body: { ok, proxy: "up", service: state, restarts: service.restarts(), ...(store && { store }) } };
}

/** Seconds a client should wait before trying again while the service restarts. */
export const RETRY_AFTER_S = 2;

/**
 * The answer to an /api request while the embedded service cannot take it, or undefined when
 * it can. Requests are refused here rather than sent to a port nobody listens on (a 502).
 */
export function serviceUnavailable(service: ServiceStatus): { body: ErrorBody; headers: OutgoingHttpHeaders } | undefined {
  const state = service.state();
  if (serving(state)) return undefined;
  if (state === "down" || state === "stopped") {
    return {
      body: errorBody("unavailable", "The local service is down and Baseboard stopped restarting it; see Baseboard's log, then restart Baseboard."),
      headers: {},
    };
  }
  if (state === "unresponsive") {
    return {
      body: errorBody("unavailable", "The local service is running but not answering (it may be hung). Baseboard restarts it if it does not answer again within a few seconds."),
      headers: { "retry-after": String(RETRY_AFTER_S) },
    };
  }
  const what = state === "starting" ? "starting" : "restarting";
  return { body: errorBody("unavailable", `The local service is ${what}; try again in a moment.`), headers: { "retry-after": String(RETRY_AFTER_S) } };
}
