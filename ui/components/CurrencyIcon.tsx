import { type Currency, currencyIconPath } from "../../services/cdn.ts"
import { cdnBase } from "../../services/client.ts"

export const CurrencyIcon = ({ currency, size = 20 }: { currency: Currency; size?: number }) => (
  <img
    className="currency-icon"
    src={`${cdnBase()}/${currencyIconPath(currency.type, currency.code)}`}
    width={size}
    height={size}
    alt=""
    aria-hidden="true"
  />
)
