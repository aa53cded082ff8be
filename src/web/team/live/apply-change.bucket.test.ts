import { QueryClient } from "@tanstack/react-query";
import { afterEach, expect, it, vi } from "vitest";
import { applyChange } from "./apply-change";
import type { LiveChange } from "./live-types";
import { useLiveStore } from "./live-store";

afterEach(() => vi.useRealTimers());

it("a burst of uploads elsewhere fetches the bucket's listings again once per quarter second, not once each", () => {
  vi.useFakeTimers();
  const qc = new QueryClient();
  const spy = vi.spyOn(qc, "invalidateQueries");
  const upload = (i: number): LiveChange => ({ id: i, at: new Date().toISOString(), kind: "upload", resource: "bucket:team-files", bucket: "team-files", keys: [`huge/f${i}.txt`], actor: { email: "ada@example.com", name: "Ada" }, origin: "baseboard" });
  for (let i = 0; i < 400; i++) applyChange(qc, upload(i), () => undefined, "my-tab");
  expect(spy).not.toHaveBeenCalled();
  vi.advanceTimersByTime(300);
  expect(spy).toHaveBeenCalledTimes(1);
  // One more after it: fetched again, once.
  applyChange(qc, upload(401), () => undefined, "my-tab");
  vi.advanceTimersByTime(300);
  expect(spy).toHaveBeenCalledTimes(2);
});

it("a storage job this tab started, ended: its listing is read again, with no notice of its own action; one from another tab is a notice (review 46b #8)", () => {
  vi.useFakeTimers();
  const qc = new QueryClient();
  const spy = vi.spyOn(qc, "invalidateQueries");
  const moved = (id: number, tab: string): LiveChange => ({ id, at: new Date().toISOString(), kind: "storage-job", job: "move", from: "a.txt", to: "b.txt", resource: "bucket:jobs-b", bucket: "jobs-b", keys: ["a.txt", "b.txt"], actor: { email: "ada@example.com", name: "Ada" }, origin: "baseboard", tab });
  applyChange(qc, moved(1, "my-tab"), () => undefined, "my-tab");
  vi.advanceTimersByTime(300);
  expect(spy).toHaveBeenCalledTimes(1);
  expect(useLiveStore.getState().bucketNews.get("jobs-b")).toBeUndefined();
  applyChange(qc, moved(2, "other-tab"), () => undefined, "my-tab");
  expect(useLiveStore.getState().bucketNews.get("jobs-b")).toMatchObject([{ what: "moved", from: "a.txt", to: "b.txt" }]);
});
