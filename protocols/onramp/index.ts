/** The Buy crypto widget families' protocols (docs/onramp.md), by family. */
import type { OnrampFamily } from "../../services/onramp-rules.ts"
import { banxa } from "./banxa.ts"
import type { OnrampAdapter } from "./family.ts"
import { mercuryo } from "./mercuryo.ts"
import { moonpay } from "./moonpay.ts"
import { transak } from "./transak.ts"

export type {
  CallbackCheck,
  Launch,
  LaunchCheck,
  LaunchParams,
  OnrampAdapter,
  OrderEvent,
  OrderStatus,
  SignedCallback,
  WidgetCredentials,
} from "./family.ts"

export const onrampAdapters: Readonly<Record<OnrampFamily, OnrampAdapter>> = {
  banxa,
  mercuryo,
  moonpay,
  transak,
}
