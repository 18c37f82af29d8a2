import { defineConfig } from "@playwright/test"

// Debian's Chromium (apt), never a downloaded browser. The global setup starts the real server.
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  // Two cores: 3 workers measured slower than 2 (14.5 against about 12 minutes). E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry on CI: a two-core machine running two browsers, the server, PostgreSQL and a chain node
  // sometimes misses a timing no player would notice. A test that needed it is still listed by name
  // with its error in the summary (scripts/test-all.sh); failing twice fails the run.
  retries: process.env.CI === "true" ? 1 : 0,
  forbidOnly: process.env.CI === "true",
  // A bound for a hang, not a speed check: the multi-step journeys took over 60 s when the machine
  // was shared with other heavy work (load average 13), while waiting only for states.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ["json", { outputFile: "test-results/playwright.json" }],
    ["html", { open: "never", outputFolder: "playwright-report" }],
  ],
  use: {
    // Set by the global setup; workers inherit it (they load this file again after the setup ran).
    baseURL: process.env.E2E_BASE_URL,
    browserName: "chromium",
    headless: true,
    screenshot: "only-on-failure",
    // A trace (the DOM at each action, the sources; the failure's own screenshot is taken apart) is
    // recorded where it is read: locally for every attempt, kept when it fails; on CI only for the
    // retry of a test that failed once, so a test that fails twice leaves the trace of its second
    // failure. Recording one for every attempt cost about a tenth of the e2e CPU on two cores (15
    // axe tests: 186 CPU-s with it, 163 without); the screencast a quarter more (E2E_TRACE=full).
    // E2E_TRACE=every records every attempt on CI too; E2E_TRACE=off records none.
    trace:
      process.env.E2E_TRACE === "off"
        ? "off"
        : {
            mode:
              process.env.CI === "true" &&
              process.env.E2E_TRACE !== "every" &&
              process.env.E2E_TRACE !== "full"
                ? "on-first-retry"
                : "retain-on-failure",
            screenshots: process.env.E2E_TRACE === "full",
            snapshots: true,
            sources: true,
          },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
})
