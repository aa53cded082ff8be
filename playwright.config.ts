import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium against the real launcher: the proxy serving the built
 * app, and the embedded local service on its own fresh data directory. Nothing is mocked.
 */
// Overridable so that two people (or agents) can run end-to-end tests side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 5199);
export const E2E_SERVICE_PORT = Number(process.env.E2E_SERVICE_PORT ?? 8799);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".data-e2e";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // Three files at once, from different groups: each group's files run one after another, because
  // they share what they change (the web server's tables, its buckets, or a stack's ports), while
  // two groups share nothing. The suite mostly waits (for sessions to end, uploads to resume,
  // stacks to start): its processes used ~30% of the two cores on two workers, whose run the
  // team group alone decided (3.6 of 5.6 min). Split in two (each worker its own team ports),
  // three workers. On two cores the suite took 5.2 min on one worker.
  workers: 3,
  fullyParallel: false,
  projects: [
    // Listed longest first (records ~185 s, each team group ~100, hosted ~60, storage ~50 in CI):
    // the workers take groups in this order, so the longest start at once and the short ones
    // fill in after (storage second left one worker on records while the other ran the rest).
    { name: "records", testMatch: ["records-*.spec.ts"], workers: 1 },
    // Their own launchers: a team group's files one after another on its worker's ports
    // (e2e/testing/team.ts), the hosted stack's likewise on fixed ones; the stacks share nothing,
    // so the groups run side by side (one group of all took 5 min alone, the whole run's length).
    { name: "stacks", testMatch: ["team-people.spec.ts", "team-live.spec.ts", "team-first-run.spec.ts", "service-hung.spec.ts"], workers: 1 },
    { name: "stacks-2", testMatch: ["team-audit.spec.ts", "team-oidc.spec.ts", "storage-resume.spec.ts"], workers: 1 },
    { name: "hosted", testMatch: ["hosted-*.spec.ts", "storage-jobs-hosted.spec.ts"], workers: 1 },
    { name: "storage", testMatch: ["storage-browse.spec.ts", "storage-jobs.spec.ts", "storage-select.spec.ts", "storage-upload.spec.ts"], workers: 1 },
    // Both workspaces on one page (screenshots, axe over whole pages, the shell): after the
    // records and storage groups, so that neither's changes (a file uploaded, a Record edited)
    // show up in them as a live notice meanwhile.
    { name: "screens", testMatch: ["a11y-screens.spec.ts", "ui-kit.spec.ts", "shell.spec.ts", "keyboard-layout.spec.ts"], dependencies: ["records", "storage"], workers: 1 },
  ],
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    trace: "off",
    screenshot: "only-on-failure",
  },
  webServer: {
    // Baseboard as `npm start` runs it: the esbuild bundle on plain node, built here first (the
    // team and hosted stacks the specs start run the same bundle).
    command: `npm run build:server --silent && rm -rf ${E2E_DATA_DIR} && node --max-semi-space-size=1 dist-server/launcher/main.js`,
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(E2E_PORT),
      SERVICE_PORT: String(E2E_SERVICE_PORT),
      DATA_DIR: E2E_DATA_DIR,
      // Small enough that the "file too large" flow is quick to test.
      SERVICE_MAX_UPLOAD_BYTES: String(5 * 1024 * 1024),
    },
    stdout: "pipe",
    stderr: "pipe",
  },
});
