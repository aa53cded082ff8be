/** Route /storage/$bucket: the shell hands the bucket and folder to the storage workspace. */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { configQueryOptions } from "./config-get-query";
import { useHiddenWhy } from "../team/hidden-probe-query";

// Lazy, so the first screen does not carry the storage workspace's code.
const StorageWorkspace = lazy(() => import("../storage/StorageWorkspace").then((m) => ({ default: m.StorageWorkspace })));

export function StoragePage(props: { bucket: string; folder: string; onFolderChange(folder: string): void; openFile?: string; onFileOpened?(): void }) {
  const { data: config } = useQuery(configQueryOptions());
  const bucket = config?.buckets.find((b) => b.name === props.bucket);
  const hidden = useHiddenWhy("bucket", props.bucket, !!config && !bucket);
  if (!config) return null;
  if (!bucket) {
    return (
      <div className="center-state" role="alert">
        <h1>{hidden ? `You have no access to bucket ${props.bucket}` : `No bucket "${props.bucket}"`}</h1>
        <p className="muted">{hidden ?? "Choose one of the buckets on the left."}</p>
      </div>
    );
  }
  // A forbidden bucket is turned away by the workspace itself (BucketGate), before any request.
  return (
    <Suspense fallback={<p className="muted pad">Loading storage…</p>}>
      <StorageWorkspace bucket={props.bucket} folder={props.folder} onFolderChange={props.onFolderChange} openFile={props.openFile} onFileOpened={props.onFileOpened} config={config} />
    </Suspense>
  );
}
