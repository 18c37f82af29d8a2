/**
 * How long the visualizer's work takes per machine, in Node (the browser runs the same code):
 * reading the chart, the elkjs layout, and generating the test paths. Each is repeated RUNS times
 * after one warm-up; the median and the slowest run are printed. A benchmark, not a test: it
 * asserts nothing about speed.
 *   npm run bench:statecharts            # every machine
 *   BENCH_RUNS=20 npm run bench:statecharts
 */
import { performance } from "node:perf_hooks"
import ELK from "elkjs/lib/elk.bundled.js"
import { chartOf } from "../statecharts/chart.ts"
import { loadModels } from "../statecharts/discover.ts"
import { layoutChart } from "../statecharts/layout.ts"
import { generatePaths } from "../statecharts/paths.ts"

const RUNS = Number(process.env.BENCH_RUNS ?? 7)
const elk = new ELK()

const timed = async (work: () => unknown): Promise<{ median: number; max: number }> => {
  await work()
  const samples: Array<number> = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    await work()
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return { median: samples[Math.floor(samples.length / 2)] ?? 0, max: samples[samples.length - 1] ?? 0 }
}

const ms = (t: { median: number; max: number }): string =>
  `${t.median.toFixed(2).padStart(7)} ms (max ${t.max.toFixed(2)})`

process.stdout.write(`Statechart work per machine, ${RUNS} runs after a warm-up: median (slowest)\n`)
process.stdout.write(
  `${"machine".padEnd(20)}${"states".padStart(7)}${"paths".padStart(7)}  ${"chart".padEnd(26)}${"layout".padEnd(26)}paths\n`,
)
for (const { flow, model } of await loadModels()) {
  const chart = chartOf(model.machine, flow)
  const layout = await layoutChart(chart, elk)
  const paths = generatePaths(model)
  const read = await timed(() => chartOf(model.machine, flow))
  const laid = await timed(() => layoutChart(chart, elk))
  const generated = await timed(() => generatePaths(model))
  process.stdout.write(
    `${flow.padEnd(20)}${String(layout.states.length).padStart(7)}${String(paths.length).padStart(7)}  ${ms(read).padEnd(26)}${ms(laid).padEnd(26)}${ms(generated)}\n`,
  )
}
