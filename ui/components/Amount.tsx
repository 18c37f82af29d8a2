import type { Currencies } from "../../services/cdn.ts"
import { formatMinorUnits } from "../../services/money.ts"

/** A balance in integer minor units, shown in its currency's major unit (raw when the currency is unknown). */
export const Amount = ({
  minor,
  currency,
  currencies,
}: {
  minor: string
  currency: string
  currencies: Currencies
}) => {
  const known = currencies.find((c) => c.code === currency)
  return <>{known ? formatMinorUnits(minor, known.subunits_to_unit) : minor}</>
}
