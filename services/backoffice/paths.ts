/**
 * Paths the back office's machines need without its schemas: a machine charted by the player
 * build's /statecharts visualizer imports this, never the contract modules (and their effect/http-api).
 */

/** The staff's live stream of every conversation's chat events (server-sent events). */
export const SUPPORT_EVENTS_PATH = "/api/backoffice/v1/chat/events"
