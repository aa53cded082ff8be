/**
 * An engine failure that no route turned into a Result (a storage metadata lookup inside an
 * upload, a registry read) as the HTTP error it means: the database unreachable or restarting
 * is a 503, a full disk a 507, never a 500. Other engine errors stay unknown (a real 500).
 */
import { HttpError } from "../../http-error";
import { EngineError } from "./engine";
import { stateFailure } from "./failures";

export function engineHttpError(err: unknown): HttpError | undefined {
  if (!(err instanceof EngineError)) return undefined;
  const state = stateFailure(err.kind);
  return state && !state.ok ? HttpError.from(state.error) : undefined;
}
