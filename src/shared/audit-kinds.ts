/**
 * The kinds of activity-log entry `GET /api/audit?kind=` takes (a comma list), and that the
 * Activity page's Kind filter offers: one list for the API and the app.
 */
export const AUDIT_KINDS = ["update", "insert", "delete-records", "import", "upload", "restore-file", "delete-file", "storage-job", "people", "refused", "sign-in-failed"] as const;
