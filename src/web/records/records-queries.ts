/**
 * Kept for the imports that still name it: the records data layer now lives one file per
 * resource and verb (records-list-query.ts, records-count-query.ts, fields-list-query.ts,
 * records-update-mutation.ts, app/config-get-query.ts) with its keys in records-keys.ts.
 */
export { configQueryOptions } from "../app/config-get-query";
export { fieldsQueryOptions } from "./fields-list-query";
export { countQueryOptions } from "./records-count-query";
export { queryRecords, recordsQueryOptions } from "./records-list-query";
export { invalidateTableRecords, type UpdateOutcome, updateRecords } from "./records-update-mutation";
export { recordKeys } from "./records-keys";
