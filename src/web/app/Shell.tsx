/**
 * The frame around both workspaces: top bar (upstream indicator, help), sidebar, the routed
 * page, toasts and the shortcut overlay. Waits for /api/config, which everything else needs.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, Outlet, useRouterState } from "@tanstack/react-router";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AppConfig } from "../../shared/meta";
import { configQueryOptions } from "./config-get-query";
import { ApiError } from "../api-client";
import { type Health, healthKeys, healthQueryOptions } from "./health-get-query";
import type { UpstreamState } from "./health.utils";
import { Toaster } from "../ui/toast";
import { listenForLostFocus } from "../ui/focus-fallback";
import { HelpOverlay } from "./HelpOverlay";
import { isTypingTarget } from "./shortcuts";
import { Sidebar } from "./Sidebar";
import { Icon } from "../ui/icons";
import { AccountMenu } from "../team/AccountMenu";
import { SessionEndedNotice } from "../team/SessionEndedNotice";
import "../team/team.css";
import { useLiveEvents } from "../team/live/use-live-events";
import { meQueryOptions } from "../team/me-get-query";

export function Shell() {
  const config = useQuery(configQueryOptions());
  const [help, setHelp] = useState(false);
  const report = useQuery(healthQueryOptions()).data;
  const health = report?.state;
  useRefetchWhenBack(health);
  // Others' changes and presence, live, once we know who we are (a session, or nobody signs in).
  const me = useQuery(meQueryOptions()).data;
  useLiveEvents(config.data, !!me);
  const closeHelp = useCallback(() => setHelp(false), []);
  const pathname = useRouterState({ select: (r) => r.location.pathname });
  const sidebar = useSidebarOpen();

  // A focused control taken out of the page hands the focus on, wherever it was.
  useEffect(listenForLostFocus, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "?" && !isTypingTarget(e.target) && !help) {
        e.preventDefault();
        setHelp(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [help]);

  return (
    <div className="app">
      <a
        href="#main"
        className="skip-link"
        onClick={(e) => {
          // To the grid's active cell when there is a grid, else to the page's main region.
          e.preventDefault();
          const target = document.querySelector<HTMLElement>('[role="grid"] [role="gridcell"][tabindex="0"]') ?? document.getElementById("main");
          target?.focus();
        }}
      >
        {pathname.startsWith("/records/") && config.data ? "Skip to grid" : "Skip to content"}
      </a>
      <header className="topbar">
        {config.data && (
          // At 200% zoom (or on a narrow window) the sidebar took a third of the width: it folds
          // away, and starts folded there; the choice is remembered.
          <button
            type="button"
            className="btn btn-ghost btn-icon sidebar-toggle"
            aria-expanded={sidebar.open}
            aria-controls="sidebar"
            aria-label={sidebar.open ? "Hide tables and buckets" : "Show tables and buckets"}
            title={sidebar.open ? "Hide tables and buckets" : "Show tables and buckets"}
            onClick={sidebar.toggle}
          >
            <Icon name="menu" size={16} />
          </button>
        )}
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Baseboard
        </Link>
        <div className="topbar-right">
          {config.data ? <UpstreamBadge upstream={config.data.upstream} health={report} /> : health && health !== "up" && <UpstreamBadge upstream={{ kind: report?.hosted ? "hosted" : "local", label: "" }} health={report} unknownKind={!report?.hosted} />}
          <button type="button" className="btn btn-ghost" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
            <kbd>?</kbd> Shortcuts
          </button>
          <AccountMenu />
        </div>
      </header>
      {config.data ? (
        <div className="body">
          {sidebar.open && <Sidebar config={config.data} />}
          <main className="main" id="main" tabIndex={-1}>
            <Outlet />
          </main>
        </div>
      ) : config.isError && config.error instanceof ApiError && config.error.signInRequired ? (
        // Not a server that cannot be reached: the session ended, and the sign-in notice is over this.
        <main className="main center-state" role="status">
          <h1>Sign in to Baseboard</h1>
          <p className="muted">
            <a href={`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`}>Open the sign-in page</a>
          </p>
        </main>
      ) : (health && health !== "up") || config.isError ? (
        // The service hangs, restarts or cannot be reached: one screen, said within seconds
        // instead of waiting on the config, and kept while it lasts (review 55b #1: it turned into
        // another, whose <main role="alert"> lost the page its main landmark). It fills in by
        // itself when the service is back (useRefetchWhenBack).
        <main className="main center-state" id="main" tabIndex={-1}>
          <div role="alert">
            <h1>{outageTitle(report, config.isError)}</h1>
            <p className="muted">{outageText(report, config.isError)}</p>
            {config.isError && <p className="error-text">{config.error.message}</p>}
          </div>
          <button type="button" className="btn" onClick={() => config.refetch()}>
            Try again now
          </button>
        </main>
      ) : (
        <main className="main center-state" id="main" tabIndex={-1} aria-busy="true">
          <p className="muted">Loading configuration…</p>
        </main>
      )}
      {help && <HelpOverlay onClose={closeHelp} />}
      <Toaster />
      <SessionEndedNotice />
    </div>
  );
}

/** The outage screen's title: which part does not answer, as far as the page can tell. */
function outageTitle(report: Health | undefined, configFailed: boolean): string {
  if (report?.part === "proxy") return "Baseboard's server is not answering";
  if (report?.state === "restarting") return "The service is restarting";
  if (report?.state === "down" || !configFailed) return report?.hosted ? "The hosted service is not answering" : "The service is not answering";
  return "Baseboard cannot reach its service";
}

/** What the outage means and what happens next; a hosted upstream is not restarted by Baseboard. */
function outageText(report: Health | undefined, configFailed: boolean): string {
  if (report?.part === "proxy") return "The Baseboard server this page came from does not answer (it may be stopped or restarting); this page fills in by itself as soon as it answers.";
  if (report?.state === "restarting") return "Baseboard's service is starting again; this page fills in by itself in a moment.";
  if (report?.hosted) return "The service Baseboard forwards to (BASE_URL) does not answer: it may be stopped, stuck or unreachable from here. Baseboard cannot restart it; this page fills in by itself as soon as it answers.";
  if (report?.state === "down" || !configFailed) return "Baseboard's local service does not answer (it may be stuck or stopped). The proxy restarts it when it stays stuck; this page fills in by itself as soon as it answers.";
  return "This page fills in by itself as soon as it can; or try again now.";
}

/** When the upstream comes back, everything on screen is fetched again, without a click. */
function useRefetchWhenBack(state: UpstreamState | undefined) {
  const qc = useQueryClient();
  const prev = useRef(state);
  useEffect(() => {
    const was = prev.current;
    prev.current = state;
    if (state === "up" && was !== undefined && was !== "up") {
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== healthKeys.health()[0] });
    }
  }, [state, qc]);
}

const stateText: Record<UpstreamState, string> = { up: "up", restarting: "restarting", down: "unreachable" };

/** Who is to blame when something is not up: Baseboard's own server or store, not the service they front. */
const PART_NAMES = { proxy: "Baseboard server", store: "Baseboard's store" } as const;
const PART_TITLES = {
  proxy: "Baseboard's own server (the proxy this page came from) does not answer",
  store: "Baseboard's own database (BASEBOARD_DATABASE_URL) does not answer: changes, sign-ins and the activity log wait for it",
} as const;

function UpstreamBadge({ upstream, health, unknownKind }: { upstream: AppConfig["upstream"]; health: Health | undefined; unknownKind?: boolean }) {
  const local = upstream.kind === "local";
  const s = health?.state ?? "up";
  const part = s !== "up" && health && health.part !== "service" ? health.part : undefined;
  const name = part ? PART_NAMES[part] : unknownKind ? "Service" : local ? "Local service" : "Hosted service";
  return (
    <span
      className={`upstream ${local ? "upstream-local" : "upstream-hosted"} upstream-${s}`}
      title={part ? PART_TITLES[part] : `Upstream: ${upstream.label} (${stateText[s]})`}
      data-testid="upstream"
      data-state={s}
      data-part={part ?? "service"}
      role="status"
      aria-label={`${name} ${stateText[s]}`}
    >
      <span className="dot" aria-hidden="true" />
      {name}
      {!local && !part && <span className="upstream-label">{upstream.label}</span>}
      {s !== "up" && <span className="upstream-state">{s === "down" ? "down" : "restarting"}</span>}
    </span>
  );
}

const SIDEBAR_KEY = "baseboard.sidebar";
/** Narrower than this (200% zoom on a 1400-pixel window is 700), the sidebar starts folded. */
const NARROW = "(max-width: 900px)";

/** Whether the sidebar shows: as the person last chose, else open unless the window is narrow. */
function useSidebarOpen() {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  const [chosen, setChosen] = useState<boolean | undefined>(() => {
    const v = window.localStorage.getItem(SIDEBAR_KEY);
    return v === "open" ? true : v === "closed" ? false : undefined;
  });
  useEffect(() => {
    const m = window.matchMedia(NARROW);
    const onChange = () => setNarrow(m.matches);
    m.addEventListener("change", onChange);
    return () => m.removeEventListener("change", onChange);
  }, []);
  const open = chosen ?? !narrow;
  const toggle = useCallback(() => {
    setChosen(!open);
    window.localStorage.setItem(SIDEBAR_KEY, open ? "closed" : "open");
  }, [open]);
  return { open, toggle };
}
