#!/usr/bin/env bash
# The whole test run (`npm test`): typecheck, lint and layers (in the background), build the apps,
# vitest (model, property, unit, server), then the Playwright end-to-end tests in Chromium. Every
# step runs even when an earlier one failed, so one run shows everything; the exit status is non-zero
# if anything failed. The last line is `N passed, N failed`: the vitest and Playwright test counts,
# plus one failure for each check (typecheck, lint, build) or suite that failed without test results.
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT="$(pwd)"
# Node 24 from node_modules first, for every tool started below (system Node may be older).
export PATH="$ROOT/node_modules/.bin:$PATH"
NODE="$ROOT/node_modules/.bin/node"
RESULTS="$ROOT/test-results"
mkdir -p "$RESULTS"
rm -f "$RESULTS/vitest.json" "$RESULTS/playwright.json" "$RESULTS/vitest-timings.json"
# One line per step (name, seconds, status), read by `npm run test:timings`.
STEPS="$RESULTS/steps.tsv"
: >"$STEPS"
RUN_STARTED=$SECONDS

declare -a SUMMARY=()
FAILED_STEPS=0
EXTRA_FAILURES=0

run_step() {
  local name="$1"
  shift
  local started=$SECONDS
  printf '\n\033[1m━━ %s\033[0m  (%s)\n' "$name" "$*"
  if "$@"; then
    SUMMARY+=("PASS  $name ($((SECONDS - started))s)")
    printf '%s\t%s\t%s\n' "$name" "$((SECONDS - started))" pass >>"$STEPS"
    return 0
  else
    local code=$?
    SUMMARY+=("FAIL  $name ($((SECONDS - started))s, exit $code)")
    printf '%s\t%s\t%s\n' "$name" "$((SECONDS - started))" fail >>"$STEPS"
    FAILED_STEPS=$((FAILED_STEPS + 1))
    return "$code"
  fi
}

echo "node $("$NODE" --version) · $(date -u +%Y-%m-%dT%H:%M:%SZ) · CI=${CI:-}"

# The static checks need no build and no database: they run in the background beside the build and
# vitest (the cores are shared; they take about 20 s of CPU), and are reported once vitest is done.
BACKGROUND="$RESULTS/checks"
rm -rf "$BACKGROUND"
mkdir -p "$BACKGROUND"
in_background() {
  # $1 = step name, then the command: its output to checks/<n>.log, its status and seconds beside it.
  local name="$1" n="$2"
  shift 2
  (
    local started=$SECONDS
    "$@" >"$BACKGROUND/$n.log" 2>&1
    echo "$? $((SECONDS - started))" >"$BACKGROUND/$n.status"
  ) &
  echo "$name" >"$BACKGROUND/$n.name"
}
collect_background() {
  wait
  local f n name rc secs
  for f in "$BACKGROUND"/*.name; do
    n="$(basename "$f" .name)"
    name="$(cat "$f")"
    read -r rc secs <"$BACKGROUND/$n.status"
    printf '\n\033[1m━━ %s\033[0m  (ran in the background)\n' "$name"
    cat "$BACKGROUND/$n.log"
    if [ "$rc" = 0 ]; then
      SUMMARY+=("PASS  $name (${secs}s, in the background)")
      printf '%s\t%s\t%s\n' "$name" "$secs" pass >>"$STEPS"
    else
      SUMMARY+=("FAIL  $name (${secs}s, exit $rc, in the background)")
      printf '%s\t%s\t%s\n' "$name" "$secs" fail >>"$STEPS"
      FAILED_STEPS=$((FAILED_STEPS + 1))
      EXTRA_FAILURES=$((EXTRA_FAILURES + 1))
    fi
  done
}

in_background "typecheck" 1 "$NODE" node_modules/typescript/bin/tsc --noEmit -p tsconfig.json
in_background "lint" 2 "$NODE" node_modules/@biomejs/biome/bin/biome check .
# The layers (.dependency-cruiser.cjs): the casino imports no provider, no provider imports the casino…
in_background "layers" 3 "$NODE" node_modules/dependency-cruiser/bin/dependency-cruiser.mjs \
  --config .dependency-cruiser.cjs --output-type err \
  server providers protocols lib services machines ui compose statecharts

BUILD_OK=1
# Both browser apps, each its own Vite build: the player's → dist/app, the back office → dist/backoffice.
run_step "build (scripts/build.ts → dist/app, dist/backoffice)" "$NODE" scripts/build.ts || {
  BUILD_OK=0
  EXTRA_FAILURES=$((EXTRA_FAILURES + 1))
}

VITEST_RC=0
run_step "vitest (model, property, unit, server)" "$NODE" node_modules/vitest/vitest.mjs run \
  --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest.json" \
  --reporter=./tests/support/timings-reporter.ts || VITEST_RC=$?

collect_background

PLAYWRIGHT_RC=0
if [ "$BUILD_OK" = 1 ]; then
  run_step "playwright e2e (Chromium)" "$NODE" node_modules/@playwright/test/cli.js test || PLAYWRIGHT_RC=$?
else
  SUMMARY+=("SKIP  playwright e2e: the app did not build")
fi

# ── Counts ──────────────────────────────────────────────────────────────────────────────────
count() {
  # $1 = report file, $2 = kind (vitest|playwright); prints "passed failed skipped" or nothing.
  [ -s "$1" ] || return 0
  "$NODE" -e '
    const [file, kind] = process.argv.slice(1)
    const r = JSON.parse(require("node:fs").readFileSync(file, "utf8"))
    if (kind === "vitest") {
      console.log(r.numPassedTests, r.numFailedTests, (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0))
    } else {
      const s = r.stats ?? {}
      console.log((s.expected ?? 0) + (s.flaky ?? 0), s.unexpected ?? 0, s.skipped ?? 0)
    }' "$1" "$2" 2>/dev/null || true
}

PASSED=0
FAILED=0
SKIPPED=0
for pair in "vitest:$RESULTS/vitest.json" "playwright:$RESULTS/playwright.json"; do
  kind="${pair%%:*}"
  file="${pair#*:}"
  read -r p f s <<<"$(count "$file" "$kind")"
  if [ -z "${p:-}" ]; then
    # No results: the suite crashed (one failure), or e2e was skipped for the failed build
    # (already counted).
    if [ "$kind" = vitest ] || [ "$BUILD_OK" = 1 ]; then
      SUMMARY+=("      $kind: no results file ($file)")
      EXTRA_FAILURES=$((EXTRA_FAILURES + 1))
    fi
    continue
  fi
  SUMMARY+=("      $kind: $p passed, $f failed, $s skipped")
  # A suite that failed with no failed test (global setup, a file that does not load): one failure.
  rc=$([ "$kind" = vitest ] && echo "$VITEST_RC" || echo "$PLAYWRIGHT_RC")
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
    SUMMARY+=("      $kind exited $rc without a failed test (setup or load error): counted as one failure")
    EXTRA_FAILURES=$((EXTRA_FAILURES + 1))
  fi
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  SKIPPED=$((SKIPPED + s))
done

# End-to-end tests that failed, and those that failed once and passed on CI's one retry
# (playwright.config.ts): named with their first error line in the summary (the end of the log is
# what is read first), so a flake is seen and fixed rather than hidden.
troubled() {
  [ -s "$RESULTS/playwright.json" ] || return 0
  "$NODE" -e '
    const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))
    const walk = (suite, out) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === "flaky" || t.status === "unexpected") {
            const errors = (t.results ?? []).filter((x) => x.error).map((x) => x.error)
            // The assertion, its locator, expected and received: the first lines; where it stopped.
            const line = (e) =>
              (e.message ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim())
                .filter((l) => l !== "" && !l.startsWith("Call log")).slice(0, 5).join(" · ")
                + (e.location ? ` (${e.location.file.split("/").slice(-2).join("/")}:${e.location.line})` : "")
            const what = t.status === "flaky" ? "flaky (passed on retry)" : "failed"
            out.push(`      ${what}: ${spec.file}:${spec.line} ${spec.title}`)
            for (const e of errors) out.push(`        ${line(e).slice(0, 400)}`)
          }
      for (const child of suite.suites ?? []) walk(child, out)
      return out
    }
    for (const line of (r.suites ?? []).flatMap((s) => walk(s, []))) console.log(line)' "$RESULTS/playwright.json" 2>/dev/null || true
}
while IFS= read -r line; do
  [ -n "$line" ] && SUMMARY+=("$line")
done <<<"$(troubled)"

printf '\n\033[1m━━ Summary\033[0m\n'
printf '%s\n' "${SUMMARY[@]}"
if [ -f "$RESULTS/model-coverage.md" ]; then
  echo "Model coverage: test-results/model-coverage.md · e2e report: playwright-report/index.html"
fi
[ "$SKIPPED" -gt 0 ] && echo "$SKIPPED skipped (reasons are printed by the suites)"
[ "$EXTRA_FAILURES" -gt 0 ] && echo "$EXTRA_FAILURES check(s) failed without test counts (each counted as one failure below)"

printf '%s\t%s\t%s\n' "total" "$((SECONDS - RUN_STARTED))" - >>"$STEPS"
echo "Timings: npm run test:timings"

TOTAL_FAILED=$((FAILED + EXTRA_FAILURES))
echo "$PASSED passed, $TOTAL_FAILED failed"
if [ "$FAILED_STEPS" -gt 0 ] || [ "$TOTAL_FAILED" -gt 0 ]; then
  exit 1
fi
exit 0
