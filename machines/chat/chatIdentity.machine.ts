/**
 * Who the player is, for the chat (spec, app shell: "The chat widget gets the user's name and
 * user-id as attributes 3 s after load"). Started by the chat widget with the page; 3 s later it
 * hands the signed-in player's name and id to the chat provider (built-in: stored on the
 * conversation for staff; Chatwoot: `$chatwoot.setUser` with the server's identity hash). A visitor
 * has none to give. Signing in or out (USER_CHANGED, forwarded by the widget) starts the 3 s again;
 * when the player leaves (signed out, or another one signed in) the provider first forgets them
 * (Chatwoot: `$chatwoot.reset()`), so the next person on the device does not see their conversation.
 *
 *   waiting ─(3 s)─▶ applying ─▶ applied | unapplied
 *      └──(3 s, visitor)──▶ anonymous          USER_CHANGED (any state) ─▶ waiting
 */
import { assign, fromPromise, setup } from "xstate"
import { builtinChatProvider, type ChatProvider, type ChatUser } from "../../services/chat-provider.ts"
import type { ChatAttributes } from "../../services/chat-service.ts"

export interface ChatIdentityContext {
  readonly user: ChatUser | null
}

export type ChatIdentityEvent = { readonly type: "USER_CHANGED"; readonly user: ChatUser | null }

export const chatIdentityMachine = setup({
  types: {
    context: {} as ChatIdentityContext,
    events: {} as ChatIdentityEvent,
    input: {} as { readonly user: ChatUser | null },
  },
  actors: {
    // The Chatwoot page provides its adapter's (ui/chat/chatwoot.ts, `chatIdentityFor`).
    setAttributes: fromPromise<ChatAttributes, ChatUser>(({ input }) =>
      builtinChatProvider.setAttributes(input),
    ),
  },
  guards: {
    hasUser: ({ context }) => context.user !== null,
    playerLeft: ({ context, event }) => context.user !== null && event.user?.id !== context.user.id,
  },
  actions: {
    setUser: assign((_, params: { user: ChatUser | null }) => ({ user: params.user })),
    // The Chatwoot page provides its adapter's too.
    resetProvider: () => builtinChatProvider.reset(),
  },
}).createMachine({
  id: "chatIdentity",
  context: ({ input }) => ({ user: input.user }),
  initial: "waiting",
  on: {
    USER_CHANGED: [
      {
        guard: "playerLeft",
        target: ".waiting",
        actions: ["resetProvider", { type: "setUser", params: ({ event }) => ({ user: event.user }) }],
      },
      {
        target: ".waiting",
        actions: { type: "setUser", params: ({ event }) => ({ user: event.user }) },
      },
    ],
  },
  states: {
    waiting: {
      after: { 3000: [{ guard: "hasUser", target: "applying" }, { target: "anonymous" }] },
    },
    applying: {
      invoke: {
        id: "setAttributes",
        src: "setAttributes",
        input: ({ context }) => context.user ?? { id: "", name: "" },
        onDone: "applied",
        // The chat works without them: staff only miss the name.
        onError: "unapplied",
      },
    },
    applied: {},
    unapplied: {},
    anonymous: {},
  },
})

/** The identity child speaking to another provider than the built-in chat (the Chatwoot page's). */
export const chatIdentityFor = (provider: ChatProvider) =>
  chatIdentityMachine.provide({
    actors: {
      setAttributes: fromPromise<ChatAttributes, ChatUser>(({ input }) => provider.setAttributes(input)),
    },
    actions: { resetProvider: () => provider.reset() },
  })
