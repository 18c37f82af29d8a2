import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"
import { devProxy, precompress } from "./vite.config.ts"

// The back office (`/backoffice`): a build of its own, apart from the player's (vite.config.ts), so
// its code cannot reach the player's chunks. In one build, a module shared by both (effect's Schema)
// is emitted once with every function either uses, and the back office's would sit in the player's
// first download. The server serves dist/backoffice under /backoffice on the same origin
// (server/static/http.ts); `npm run build` (scripts/build.ts) builds both.
export default defineConfig({
  root: "ui/backoffice",
  base: "/backoffice/",
  publicDir: false,
  plugins: [react(), precompress()],
  build: {
    outDir: "../../dist/backoffice",
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    modulePreload: { polyfill: false },
    // Operators load the whole app at once (one file, ~175 kB gzip): there is no lazy chunk to warn about.
    chunkSizeWarningLimit: 1000,
  },
  server: { proxy: devProxy },
})
