/**
 * The layers, checked on every `npm test` (lint step) so nobody has to remember them:
 *
 *   ui ─▶ machines ─▶ services            the player app; services is the contract and shared rules
 *   server ─▶ services, protocols, lib    the casino
 *   providers/<party> ─▶ protocols, lib, services (pure maths)   each outside party, alone
 *   compose ─▶ anything                   the composition root that starts them together
 *   protocols, lib: nothing of the app    what the casino and the parties share; generic building blocks
 */
const app = "^(server|providers|compose|ui|machines|services|protocols|lib|statecharts)/"

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "casino-imports-no-provider",
      comment: "The casino reaches an outside party only through configuration and its protocol.",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^(providers|compose)/" },
    },
    {
      name: "provider-imports-no-casino",
      comment: "A provider could be deployed by someone else tomorrow: it shares only the protocols.",
      severity: "error",
      from: { path: "^providers/" },
      to: { path: "^(server|compose|ui|machines|statecharts)/" },
    },
    {
      name: "providers-apart",
      comment: "Each party stands alone; two parties talk over their protocol, not by import.",
      severity: "error",
      from: { path: "^providers/([^/]+)/" },
      to: { path: "^providers/", pathNot: "^providers/$1/" },
    },
    {
      name: "contract-imports-no-implementation",
      comment: "services/ and machines/ run in the browser: no server, provider, view or composition code.",
      severity: "error",
      from: { path: "^(services|machines)/" },
      to: { path: "^(server|providers|compose|ui|lib|protocols)/" },
    },
    {
      name: "machines-import-no-views",
      severity: "error",
      from: { path: "^machines/" },
      to: { path: "^ui/" },
    },
    {
      name: "protocols-stand-alone",
      comment: "A protocol is the shared wire format and signature rules: it knows neither side.",
      severity: "error",
      from: { path: "^protocols/" },
      to: { path: app, pathNot: "^(protocols|services)/" },
    },
    {
      name: "lib-stands-alone",
      comment: "Generic building blocks (database, serving, HTML encoding): no knowledge of the app.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: app, pathNot: "^lib/" },
    },
    {
      name: "views-reach-no-server",
      severity: "error",
      from: { path: "^ui/" },
      to: { path: "^(server|providers|compose|lib|protocols)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist|tests|bench|scripts)/" },
    parser: "swc",
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
}
