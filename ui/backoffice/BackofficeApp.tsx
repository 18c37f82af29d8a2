/** The back office: the sign-in until a session exists, then the screen the session machine names. */
import type { ReactElement } from "react"
import type { BackofficeScreen } from "../../services/backoffice/screens.ts"
import { AuditScreen } from "./AuditScreen.tsx"
import { useSession } from "./actors.tsx"
import { CountriesScreen } from "./CountriesScreen.tsx"
import { DashboardScreen } from "./DashboardScreen.tsx"
import { GamesScreen } from "./GamesScreen.tsx"
import { KycScreen } from "./KycScreen.tsx"
import { Layout } from "./Layout.tsx"
import { OperatorsScreen } from "./OperatorsScreen.tsx"
import { PlayersScreen } from "./PlayersScreen.tsx"
import { PromotionsScreen } from "./PromotionsScreen.tsx"
import { RatesScreen } from "./RatesScreen.tsx"
import { ReportsScreen } from "./ReportsScreen.tsx"
import { ChoosePassword, SignIn, Unreachable } from "./SignIn.tsx"
import { SupportScreen } from "./SupportScreen.tsx"
import { TokensScreen } from "./TokensScreen.tsx"
import { WithdrawalsScreen } from "./WithdrawalsScreen.tsx"

/** The screens built so far; the menu offers only these (and only those the role may open). */
const screenViews: Partial<Record<BackofficeScreen, () => ReactElement>> = {
  operators: () => <OperatorsScreen />,
  audit: () => <AuditScreen />,
  kyc: () => <KycScreen />,
  withdrawals: () => <WithdrawalsScreen />,
  players: () => <PlayersScreen />,
  support: () => <SupportScreen />,
  dashboard: () => <DashboardScreen />,
  reports: () => <ReportsScreen />,
  promotions: () => <PromotionsScreen />,
  games: () => <GamesScreen />,
  countries: () => <CountriesScreen />,
  rates: () => <RatesScreen />,
  tokens: () => <TokensScreen />,
}

export const availableScreens: ReadonlySet<BackofficeScreen> = new Set(
  Object.keys(screenViews) as Array<BackofficeScreen>,
)

const Welcome = () => {
  const me = useSession((s) => s.context.me)
  return (
    <>
      <h1>Welcome, {me?.operator.name}</h1>
      <p className="bo-muted">Choose a screen from the menu.</p>
    </>
  )
}

export const BackofficeApp = () => {
  const state = useSession((s) =>
    s.matches("checking")
      ? "checking"
      : s.matches("unavailable")
        ? "unavailable"
        : s.matches("blocked")
          ? "blocked"
          : s.matches("signedIn")
            ? "signedIn"
            : s.matches("signingOut")
              ? "signingOut"
              : s.matches("passwordRequired") || s.matches("changingPassword")
                ? "password"
                : "signedOut",
  )
  const screen = useSession((s) => s.context.screen)
  if (state === "checking")
    return (
      <p className="bo-muted bo-center" role="status">
        Loading…
      </p>
    )
  // No sign-in form while the sign-out call runs: a sign-in then would race the session's end.
  if (state === "signingOut")
    return (
      <p className="bo-muted bo-center" role="status">
        Signing out…
      </p>
    )
  if (state === "unavailable" || state === "blocked") return <Unreachable blocked={state === "blocked"} />
  if (state === "signedOut") return <SignIn />
  if (state === "password") return <ChoosePassword />
  const View = screenViews[screen]
  return <Layout available={availableScreens}>{View ? <View key={screen} /> : <Welcome />}</Layout>
}
