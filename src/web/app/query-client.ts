/**
 * One QueryClient for the app. A failed query or mutation shows a toast with the service's
 * message unless the caller says it shows the error itself (`meta: { handlesErrors: true }`).
 */
import { MutationCache, notifyManager, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api-client";
import { toast } from "../ui/toast";
import { healthKeys } from "./health-get-query";

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: { handlesErrors?: boolean };
    mutationMeta: { handlesErrors?: boolean };
  }
}

export function toastError(err: unknown, title = "Request failed"): void {
  // The session ended: the app says so once, over the page, and goes to sign in (session-ended.ts).
  if (err instanceof ApiError && err.signInRequired) return;
  if (err instanceof ApiError) toast(title, { kind: "error", detail: err.message });
  else toast(title, { kind: "error", detail: err instanceof Error ? err.message : String(err) });
}

/** No answer, or the proxy saying the upstream is away: ask the badge to look again now. */
export const isOutage = (err: unknown) => err instanceof ApiError && (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504);

export function createQueryClient(): QueryClient {
  const recheckHealth = (err: unknown) => {
    if (isOutage(err)) void client.invalidateQueries({ queryKey: healthKeys.health() });
  };
  // Deliver query results to components in a microtask rather than a 0 ms timer (which costs
  // 1–4 ms before a fetched page can start rendering).
  notifyManager.setScheduler(queueMicrotask);
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        recheckHealth(err);
        if (!query.meta?.handlesErrors) toastError(err, "Could not load data");
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        recheckHealth(err);
        if (!mutation.meta?.handlesErrors) toastError(err, "Could not save");
      },
    }),
    defaultOptions: {
      queries: {
        // A 4xx will not fix itself by asking again; a dropped connection might.
        retry: (n, err) => n < 2 && err instanceof ApiError && (err.status === 0 || err.status >= 500),
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
    },
  });
  return client;
}
