/**
 * The Buy crypto widgets the casino offers (docs/onramp.md): each one's credentials as configured in
 * ONRAMP_WIDGETS (a real provider, or a sandbox's test keys locally); the families' protocols are
 * protocols/onramp/.
 */
import type { WidgetCredentials } from "../../../protocols/onramp/index.ts"
import type { OnrampFamily } from "../../../services/onramp-rules.ts"
import type { AppConfigShape } from "../../config.ts"

/** The widget's credentials, or undefined when ONRAMP_WIDGETS does not list it (it is not offered). */
export const widgetCredentials = (
  config: AppConfigShape,
  widget: OnrampFamily,
): WidgetCredentials | undefined => config.onrampWidgets.find((w) => w.id === widget)
