/**
 * Formatting integer minor units for display. Amounts travel as decimal strings of minor units and
 * are handled as bigint; nothing here ever becomes a float.
 */
export const formatMinorUnits = (minor: string, subunitsToUnit: string): string => {
  const amount = BigInt(minor)
  const unit = BigInt(subunitsToUnit)
  const negative = amount < 0n
  const abs = negative ? -amount : amount
  const whole = abs / unit
  const fraction = abs % unit
  const digits = unit.toString().length - 1
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  if (digits === 0) return `${negative ? "-" : ""}${wholeText}`
  // Show at most 8 decimals (wei has 18); trailing zeros beyond 2 are trimmed.
  let fractionText = fraction.toString().padStart(digits, "0").slice(0, Math.min(digits, 8))
  while (fractionText.length > 2 && fractionText.endsWith("0")) fractionText = fractionText.slice(0, -1)
  return `${negative ? "-" : ""}${wholeText}.${fractionText}`
}
