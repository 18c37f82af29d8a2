/**
 * The studio on its own HTTP server (no casino routes): migrations, its routes, its outbox fiber.
 * Tests use it to exercise the studio alone against a fake casino wallet; an operator may run it as a
 * separate process, as the external provider it pretends to be.
 */
import { Layer } from "effect"
import type { AppConfigShape } from "../../config.ts"
import { type StandaloneServer, serveStandalone, standaloneBase, startStandalone } from "../standalone.ts"
import { makeStudioLayer } from "./index.ts"
import { StudioOptions, type StudioOptionsShape } from "./Studio.ts"

const makeStudioApp = (config: AppConfigShape, options: StudioOptionsShape) =>
  serveStandalone(config, makeStudioLayer(Layer.succeed(StudioOptions, options)), standaloneBase(config))

export type StudioServer = StandaloneServer<Layer.Success<ReturnType<typeof makeStudioApp>>>

export const makeStudioServer = (
  config: AppConfigShape,
  options: StudioOptionsShape,
): Promise<StudioServer> => startStandalone(config, makeStudioApp(config, options))
