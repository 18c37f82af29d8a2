/**
 * The sandbox provider on its own HTTP server (no casino routes): its tables migrated, its routes,
 * its dispatcher. Tests use it to exercise the provider alone; an operator may run it as a separate
 * process to treat it as the external provider it pretends to be (point PAYMENT_GATEWAYS' baseUrl at
 * it). `config.publicUrl` must be the address payers reach it at (the pages' URLs are built from it).
 */
import type { Layer } from "effect"
import type { AppConfigShape } from "../../config.ts"
import { type StandaloneServer, serveStandalone, standaloneBase, startStandalone } from "../standalone.ts"
import { paymentSandboxLayer } from "./index.ts"

export const makeSandboxLayer = (config: AppConfigShape) =>
  serveStandalone(config, paymentSandboxLayer, standaloneBase(config))

export type SandboxServer = StandaloneServer<Layer.Success<ReturnType<typeof makeSandboxLayer>>>

export const makeSandboxServer = (config: AppConfigShape): Promise<SandboxServer> =>
  startStandalone(config, makeSandboxLayer(config))
