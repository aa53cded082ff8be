/**
 * Server-side storage jobs (issue 22.2) from the app: start one (POST), follow it (a query that
 * polls while it runs), cancel it (DELETE). When it ends the bucket's listings refetch.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiFetch } from "../../api-client";
import { bucketPath, storageKeys } from "../storage-keys";

export type JobAction = "move" | "copy" | "delete";
export interface JobSpec {
  action: JobAction;
  from: string;
  to?: string;
  overwrite?: boolean;
}
export interface JobStatus {
  id: string;
  action: JobAction;
  from: string;
  to: string;
  state: "running" | "done" | "failed" | "cancelled";
  done: number;
  total: number;
  error: string | null;
}

export const jobsPath = (bucket: string) => `/api/v0/storage/jobs/${bucketPath(bucket)}`;

export function useStartJobMutation(bucket: string) {
  return useMutation({
    mutationFn: async (spec: JobSpec) => (await (await apiFetch(jobsPath(bucket), { method: "POST", json: spec })).json()) as JobStatus,
    meta: { handlesErrors: true },
  });
}

export function useJobQuery(bucket: string, id: string | undefined) {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: storageKeys.job(bucket, id ?? ""),
    queryFn: async () => (await (await apiFetch(`${jobsPath(bucket)}/${encodeURIComponent(id!)}`)).json()) as JobStatus,
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data?.state === "running" || !query.state.data ? 300 : false),
  });
  const ended = q.data && q.data.state !== "running";
  useEffect(() => {
    if (ended) void qc.invalidateQueries({ queryKey: storageKeys.bucket(bucket), predicate: (query) => query.queryKey[2] !== "job" });
  }, [ended, bucket, qc]);
  return q;
}

export function useCancelJobMutation(bucket: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await (await apiFetch(`${jobsPath(bucket)}/${encodeURIComponent(id)}`, { method: "DELETE" })).json()) as JobStatus,
    onSuccess: (job) => qc.setQueryData(storageKeys.job(bucket, job.id), job),
    meta: { handlesErrors: true },
  });
}
