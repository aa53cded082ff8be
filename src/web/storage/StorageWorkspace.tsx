/**
 * Placeholder for the storage workspace (issue 6). The web-storage engineer replaces this file;
 * the shell only relies on the props type below.
 */
import type { AppConfig } from "../../shared/meta";

export interface StorageWorkspaceProps {
  bucket: string;
  folder: string;
  onFolderChange(folder: string): void;
  config: AppConfig;
}

export function StorageWorkspace(props: StorageWorkspaceProps) {
  return (
    <section className="storage-placeholder" aria-label={`Bucket ${props.bucket}`}>
      <h2>{props.bucket}</h2>
      <p>Folder: {props.folder || "/"}</p>
    </section>
  );
}

export default StorageWorkspace;
