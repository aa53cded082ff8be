/**
 * What this person may do in one table, for the workspace's controls: from /api/me's grants
 * and the upstream's capabilities. A courtesy only: the proxy refuses anyway.
 */
import type { AppConfig } from "../../shared/meta";
import { useMay } from "../team/me-get-query";
import { NO_INSERT_REASON } from "./add/AddRecord";
import { NO_DELETE_REASON } from "./delete/DeleteSelected";

export function useTablePermissions(config: AppConfig, db: string, table: string) {
  const may = useMay().table(db, table);
  const readOnly = !may.write;
  return {
    readOnly,
    /** Why nothing here may be changed, when it may not. */
    changeWhy: readOnly ? may.why("change") : undefined,
    canDelete: !!config.capabilities.deleteRecords && may.delete,
    deleteWhy: !config.capabilities.deleteRecords ? NO_DELETE_REASON : may.delete ? undefined : may.why("delete"),
    insertWhy: !config.capabilities.insert ? NO_INSERT_REASON : readOnly ? may.why("change") : undefined,
  };
}
