import { defineConfig } from "vitest/config"

// One config, five projects. The box has 2 cores shared with other work: at most 2 workers.
// Server tests each start their own server on a fresh database, so they may run in parallel too.
export default defineConfig({
  test: {
    environment: "node",
    maxWorkers: 2,
    // A worker keeps its modules from one test file to the next: importing the server (or the
    // machines) once per worker instead of once per file saved about a quarter of the CPU. The
    // files share no module state they rely on (each server test starts its own server).
    isolate: false,
    // A bound for a hung test, not a speed check (speed is bench/'s): CPU-heavy tests that take a
    // second on a quiet machine took over vitest's 5 s default when the two cores were shared.
    testTimeout: 30_000,
    passWithNoTests: true,
    projects: [
      { extends: true, test: { name: "model", include: ["tests/model/**/*.test.ts"] } },
      { extends: true, test: { name: "property", include: ["tests/property/**/*.test.ts"] } },
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      // Reads the builds (dist/app, dist/backoffice); scripts/test-all.sh runs scripts/build.ts before vitest.
      { extends: true, test: { name: "build", include: ["tests/build/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          testTimeout: 60_000,
          // Bounds for a hung test or set-up, not speed checks: a busy two-core machine is slow to start servers.
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
