/**
 * Code-based routes. The records view's state is in the search params (validated, see
 * view-search.utils.ts), the storage folder in `?folder=`.
 */
import { createRootRoute, createRoute, createRouter } from "@tanstack/react-router";
import { RecordsWorkspace } from "../records/RecordsWorkspace";
import { sanitizeSearch } from "../records/view-search.utils";
import { Home } from "./Home";
import { NotFound } from "./NotFound";
import { Shell } from "./Shell";
import { StoragePage } from "./StoragePage";
import { AccountPage } from "../team/AccountPage";
import { PeoplePage } from "../team/PeoplePage";
import { ActivityPage } from "../team/audit/ActivityPage";
import { sanitizeActivitySearch } from "../team/audit/activity-search.utils";

// An unknown address shows inside the shell (sidebar and all), with the way back.
const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });

const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: "/", component: Home });

export const recordsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/records/$db/$table",
  validateSearch: (raw: Record<string, unknown>) => sanitizeSearch(raw).search,
  component: function RecordsRoute() {
    const { db, table } = recordsRoute.useParams();
    return <RecordsWorkspace key={`${db}/${table}`} db={db} table={table} />;
  },
});

export const storageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/storage/$bucket",
  // `file` opens that file's details (a link from Activity); it goes from the address once shown.
  validateSearch: (raw: Record<string, unknown>): { folder: string; file?: string } => ({
    folder: typeof raw.folder === "string" ? raw.folder : "",
    ...(typeof raw.file === "string" && raw.file !== "" ? { file: raw.file } : {}),
  }),
  component: function StorageRoute() {
    const { bucket } = storageRoute.useParams();
    const { folder, file } = storageRoute.useSearch();
    const navigate = storageRoute.useNavigate();
    return (
      <StoragePage
        bucket={bucket}
        folder={folder}
        onFolderChange={(f) => navigate({ search: { folder: f } })}
        openFile={file}
        onFileOpened={() => navigate({ search: { folder }, replace: true })}
      />
    );
  },
});

const peopleRoute = createRoute({ getParentRoute: () => rootRoute, path: "/people", component: PeoplePage });
const accountRoute = createRoute({ getParentRoute: () => rootRoute, path: "/account", component: AccountPage });
const activityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/activity",
  validateSearch: sanitizeActivitySearch,
  component: function ActivityRoute() {
    const search = activityRoute.useSearch();
    const navigate = activityRoute.useNavigate();
    return <ActivityPage search={search} onSearch={(s, opts) => navigate({ search: s, replace: opts?.replace })} />;
  },
});

const routeTree = rootRoute.addChildren([indexRoute, recordsRoute, storageRoute, peopleRoute, accountRoute, activityRoute]);

export const router = createRouter({ routeTree, defaultPreload: false, scrollRestoration: false });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
