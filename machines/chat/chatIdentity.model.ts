/**
 * Generated-path model of machines/chat/chatIdentity.machine.ts: a visitor and a signed-in player;
 * the 3 s wait; the provider storing the attributes or failing to; signing in and out at any point
 * (signing out also resets the provider).
 */
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { chatIdentityMachine } from "./chatIdentity.machine.ts"

const ada = { id: "0b7c6f0e-5d0a-4f43-9a59-2f8f3c1d9e11", name: "Ada Lovelace" }

export const model = defineModel({
  name: "chatIdentity",
  machine: chatIdentityMachine,
  input: { user: null },
  otherInputs: [{ name: "player", input: { user: ada } }],
  events: (snapshot) => [
    ...(snapshot.matches("waiting") ? [{ type: "xstate.after.3000.chatIdentity.waiting" }] : []),
    ...(snapshot.matches("applying")
      ? [
          { type: "xstate.done.actor.setAttributes", output: { userId: ada.id, name: ada.name } },
          { type: "xstate.error.actor.setAttributes", error: transportError() },
        ]
      : []),
    { type: "USER_CHANGED", user: snapshot.context.user === null ? ada : null },
  ],
  projectContext: (snapshot) => ({ user: snapshot.context.user !== null }),
})
