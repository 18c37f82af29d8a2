/**
 * When the first screen is up: the page the address asked for shows its content (the lobby its
 * games, any other page as soon as it renders). Code for later (the modal layer and its flows) is
 * downloaded only after that, so it never competes with the first screen for the wire or the main
 * thread. A page that never says so (an error page) lets the prefetch go after `fallbackMs`.
 */
let shown = false
const waiting: Array<() => void> = []

export const markFirstScreen = (): void => {
  if (shown) return
  shown = true
  for (const run of waiting.splice(0)) run()
}

/** Runs `task` once the first screen is up (or after `fallbackMs`), when the browser is idle. */
export const afterFirstScreen = (task: () => void, fallbackMs = 5_000): (() => void) => {
  let cancelled = false
  let idleId: number | undefined
  const idle = () => {
    if (cancelled) return
    if (typeof requestIdleCallback === "function") idleId = requestIdleCallback(task, { timeout: 3_000 })
    else setTimeout(task, 200)
  }
  const fallback = setTimeout(markFirstScreen, fallbackMs)
  if (shown) idle()
  else waiting.push(idle)
  return () => {
    cancelled = true
    clearTimeout(fallback)
    if (idleId !== undefined) cancelIdleCallback(idleId)
  }
}
