/**
 * Lobby search against the one-frame budget ("lobby search over the full catalogue within
 * one frame"): the lobby's own rule (`filterGames` of services/lobby-rules.ts, what the lobby machine
 * runs on every debounced keystroke) over the whole catalogue, and over the catalogue repeated to
 * 1,000 and 10,000 titles for headroom. Every prefix of a few search terms is timed, as a player
 * typing them; median, p99 and the slowest are printed beside a 60 Hz frame (16.7 ms). Node runs the
 * same code as the browser. A benchmark, not a test: it asserts nothing about speed.
 *   npm run bench:lobby
 */
import { performance } from "node:perf_hooks"
import type { Game, Games } from "../services/game-service.ts"
import { catalogue } from "../services/games/catalogue.ts"
import { rtpPercent } from "../services/games/rtp.ts"
import { filterGames } from "../services/lobby-rules.ts"

const FRAME_MS = 1000 / 60
const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const terms = ["aurora", "lumen play", "dice", "sevens", "high volatility", "jackpot", "zzz"]

const lobbyGames: Games = catalogue.map(
  (def): Game => ({
    id: def.id,
    launchId: def.launchId,
    name: def.name,
    provider: def.brand,
    category: def.category,
    kind: def.kind,
    imageId: def.imageId,
    // The tile the casino draws for a provider whose art is on another origin (the studio's).
    image: `/cdn/games/${def.id}.svg`,
    rtp: rtpPercent(def),
    volatility: def.volatility,
    demo: def.demo,
    jackpot: def.jackpot !== null,
    isNew: def.isNew,
    featured: def.featured,
    tags: def.tags,
  }),
)

const repeated = (size: number): Games =>
  Array.from({ length: size }, (_, i) => {
    const game = lobbyGames[i % lobbyGames.length] as Game
    return { ...game, id: `${game.id}-${i}` }
  })

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0

const measure = (games: Games) => {
  const samples: Array<number> = []
  let found = 0
  for (let run = 0; run < RUNS; run++) {
    for (const term of terms) {
      for (let end = 1; end <= term.length; end++) {
        const started = performance.now()
        found += filterGames(games, { term: term.slice(0, end), segment: null }).length
        samples.push(performance.now() - started)
      }
    }
  }
  samples.sort((a, b) => a - b)
  return {
    samples: samples.length,
    found,
    median: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    max: samples.at(-1) ?? 0,
  }
}

process.stdout.write(
  `Lobby search (filterGames), every prefix of ${terms.length} terms × ${RUNS} runs; one frame = ${FRAME_MS.toFixed(1)} ms\n`,
)
process.stdout.write(
  `${"titles".padStart(7)}${"searches".padStart(10)}${"median".padStart(11)}${"p99".padStart(11)}${"max".padStart(11)}  within a frame\n`,
)
for (const games of [lobbyGames, repeated(1_000), repeated(10_000)]) {
  measure(games) // warm-up
  const r = measure(games)
  const cell = (ms: number) => `${ms.toFixed(3)} ms`.padStart(11)
  process.stdout.write(
    `${String(games.length).padStart(7)}${String(r.samples).padStart(10)}${cell(r.median)}${cell(r.p99)}${cell(r.max)}  ${r.p99 <= FRAME_MS ? "yes" : "NO"} (p99 is ${((r.p99 / FRAME_MS) * 100).toFixed(1)} % of a frame)\n`,
  )
}
