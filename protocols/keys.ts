/**
 * Keys issued by a party's TEST environment (every sandbox here: the payment gateways, the on-ramp
 * widgets, the game studio in local mode) begin with `test_`; live keys never do — the convention of
 * the card networks' own gateways (Stripe's `sk_test_`). A casino in production refuses a test key
 * for a live party, so a sandbox's credentials cannot reach production by a copied variable.
 */
export const TEST_KEY_PREFIX = "test_"

/** Some providers' own test keys carry the mark after a kind prefix: MoonPay's `pk_test_`, `sk_test_`. */
const kindedTestKey = /^[a-z]{2,4}_test_/

export const isTestKey = (key: string): boolean => key.startsWith(TEST_KEY_PREFIX) || kindedTestKey.test(key)
