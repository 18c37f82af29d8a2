import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

// The player app lives in ui/; the casino server (server/) serves dist/app on the same origin.
// `npm run dev` proxies the API to a running server so the browser still sees one origin.
const apiTarget = process.env.API_TARGET ?? "http://127.0.0.1:8080"

export default defineConfig({
  root: "ui",
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: "../dist/app",
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    // Every browser the casino supports has native modulepreload: no polyfill in the first download.
    modulePreload: { polyfill: false },
    // The one chunk above Vite's default 500 kB warning is elkjs (the layout engine), loaded only by
    // the /statecharts route; the player's own budget is bench/budget.json.
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: "core",
              test: /node_modules[\\/](react|react-dom|scheduler|xstate|@xstate[\\/]react|use-sync-external-store|effect)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ["/user-service", "/profile-service", "/game-aggregator-service", "/ip-service", "/api", "/cdn"].map(
        (p) => [p, { target: apiTarget, changeOrigin: false }],
      ),
    ),
  },
})
