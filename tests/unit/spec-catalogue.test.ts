/**
 * The spec's exact words and numbers, copied here BY HAND from `casino-spec.md` (sections 2, 5, 7, 8
 * and 9), held against the code's catalogue. The code keeps its constants as its single source (the
 * machines, views and server read them); this test is the one place that says what they must be, so
 * a typo in a constant fails here instead of passing every test that reads the same constant.
 *
 * Each row: the spec's text as a literal, the code's value, and where the spec says it.
 */
import { describe, expect, it } from "vitest"
import { AccountMessages } from "../../services/account-rules.ts"
import { CashoutConstants, CashoutMessages } from "../../services/cashout-rules.ts"
import { LobbyMessages, PAGE_SIZE } from "../../services/lobby-rules.ts"
import { MoneyConstants, MoneyMessages } from "../../services/money-rules.ts"
import { onrampTiers } from "../../services/onramp-rules.ts"
import { DateOfBirthBounds, ProfileMessages, TextLimits } from "../../services/profile-rules.ts"
import { Constants, currencyDisplayName, ErrorPageTexts, Messages } from "../../services/rules.ts"

type Row = readonly [spec: string, code: string, where: string]

const check = (rows: ReadonlyArray<Row>) => {
  for (const [spec, code, where] of rows) {
    it(`${where}: "${spec}"`, () => expect(code).toBe(spec))
  }
}

describe("spec section 8: the error catalogue, verbatim", () => {
  check([
    [
      "Your account is on cool off period, contact support!",
      AccountMessages.loginCoolOff,
      "Login, status 451",
    ],
    [
      "Your account has been locked, Please contact support!",
      AccountMessages.loginLocked,
      "Login, status 423",
    ],
    ["Either username or password is incorrect", AccountMessages.loginFailed, "Login, any other failure"],
    ["Signin did not work!", AccountMessages.signinDidNotWork, "Login, sign-in failure in state"],
    ["User with same email exists", AccountMessages.registerEmailTaken, "Register, status 409"],
    [
      "Registration is not complete, Please contact support!",
      AccountMessages.registerIncomplete,
      "Register, validation failure",
    ],
    ["Reset password link is sent!", AccountMessages.forgotSent, "Forgot password, success"],
    ["Currency is added!", MoneyMessages.currencyAdded, "Add currency, success"],
    [
      "Couldn't add currency, please contact support",
      MoneyMessages.currencyAddFailed,
      "Add currency, failure",
    ],
    ["Cash out request has been sent!", CashoutMessages.requestSent, "Cashout crypto, success toast"],
    [
      "Something went wrong, please contact support!",
      CashoutMessages.requestFailed,
      "Cashout crypto, failure toast",
    ],
    [
      "Password must be more than 8 characters and not previously been used!",
      AccountMessages.resetRejected,
      "Reset password, rejection",
    ],
    [
      "A verification link has been sent to your email.",
      AccountMessages.resendSuccess,
      "Email verification, resend success",
    ],
    [
      "A verification link has already been sent to your email.",
      AccountMessages.resendFailure,
      "Email verification, resend failure",
    ],
    ["You are unsubscribed", ProfileMessages.unsubscribed, "Promo toggle"],
    ["You are subscribed", ProfileMessages.subscribed, "Promo toggle"],
    ["Profile saved", ProfileMessages.saved, "Profile, save"],
    ["Profile save failed!!!", ProfileMessages.saveFailed, "Profile, save failed"],
    ["Signout did not work!", Messages.signoutFailed, "Sign-out, failure"],
    ["Error", Messages.authCheckFailed, "Authentication check, failure"],
    ["Get fund did not work", Messages.fundFailed, "Fund, failure"],
    ["Get fund did not work", MoneyMessages.fundFailed, "Fund, failure (deposit flow)"],
    ["Get Withdrawable did not work", CashoutMessages.withdrawableFailed, "Withdrawable, failure"],
    ["Client Ip went wrong", Messages.clientIpFailed, "Client IP, failure"],
    ["EligiblePromotions: did not work", MoneyMessages.totalDepositsFailed, "Total deposits, failure"],
    ["Could not get deposit minimum amounts", MoneyMessages.minimumsFailed, "Deposit minimums, failure"],
    ["Get Favorit did not work", LobbyMessages.favorites, "Favorites, get"],
    ["Add favorit did not work", LobbyMessages.addFavorite, "Favorites, add"],
    ["Delete favorit did not work", LobbyMessages.deleteFavorite, "Favorites, delete"],
    ["Get New Games did not work", LobbyMessages.newGames, "Games, new"],
    ["Get Top Games did not work", LobbyMessages.topGames, "Games, top"],
    ["Get Featured Games did not work", LobbyMessages.featuredGames, "Games, featured"],
  ])
})

describe("spec section 5: validation messages, verbatim", () => {
  check([
    [
      "Doesn't appear to be a valid email. Wanna give it another go?",
      AccountMessages.invalidEmail,
      "Email, invalid",
    ],
    [
      "Your email seems to be RISKY, Please try another email!",
      AccountMessages.emailStatus("RISKY"),
      "Register, email check status (status being the returned value)",
    ],
    [
      "Something went wrong contact support",
      AccountMessages.blockedDomainRegister,
      "Blocked domain, registration",
    ],
    [
      "Your account has been locked, Please contact support!",
      AccountMessages.blockedDomainLogin,
      "Blocked domain, login",
    ],
    ["Full Name should be between 3 to 50 characters", AccountMessages.fullName, "Register, full name"],
    ["Selected currency is required.", MoneyMessages.currencyRequired, "Deposit, adding a wallet"],
    [
      "Your identification and address has to be verified before cashout",
      CashoutMessages.notVerified,
      "Cashout click, check 2",
    ],
    ["required", CashoutMessages.required, "Cashout click, check 4 ('*' plus the translated 'required')"],
    ["Please update values before continue", AccountMessages.resetNoEdits, "Reset password, no edits"],
  ])
})

describe("spec sections 2 and 7: pages and services, verbatim", () => {
  check([
    ["500", ErrorPageTexts.code, "Generic error page, title"],
    ["Error :(", ErrorPageTexts.title, "Generic error page"],
    ["We are sorry. This was unexpected.", ErrorPageTexts.body, "Generic error page"],
    ["Go Back", ErrorPageTexts.back, "Generic error page, link to /"],
    ["Authentication failed!", Messages.ipServiceFailed, "IP service, what it throws"],
    ["min 10.00 EUR, max 400.00 EUR", CashoutConstants.fixedText, "Cashout modal, fixed text"],
    ["DOGE", currencyDisplayName("DOG"), "Currency dropdown, DOG displayed as DOGE"],
    ["USDT (Erc20)", currencyDisplayName("USDT"), "Currency dropdown, USDT marked (Erc20)"],
    ["payment_config", MoneyConstants.paymentCookieName, "Payment cookie name (section 3)"],
  ])
})

describe("spec section 9: business constants and limits", () => {
  // The bonus tiers are data (the seeded promotions): tests/server/bonuses.tiers.test.ts holds them
  // to the spec's table.

  it("deposits", () => {
    expect(MoneyConstants.quickAmountsEur).toEqual([30, 75, 100])
    expect(Constants.defaultCurrency).toBe("EUR")
    // "gateway opens only if amount times eurRate is at least 10" (EUR)
    expect(MoneyConstants.gatewayGateEurCents).toBe(1_000n)
    expect(MoneyConstants.amountMaxLength).toBe(12)
  })

  it("crypto purchase widgets: 5% / about 15 min / above 200 EUR, and 4.5% / about 20 min / above 100 EUR", () => {
    expect(onrampTiers.standard).toEqual({ feeBps: 500, etaMinutes: 15, verificationAboveEur: 200 })
    expect(onrampTiers.saver).toEqual({ feeBps: 450, etaMinutes: 20, verificationAboveEur: 100 })
  })

  it("card providers: 0% fee, instant", () => {
    expect(MoneyConstants.cardFeeText).toBe("0% fee, instant")
  })

  it("cashout", () => {
    expect(CashoutConstants.fixedText).toBe("min 10.00 EUR, max 400.00 EUR")
    expect(CashoutConstants.amountMaxLength).toBe(12)
  })

  it("time", () => {
    expect(Constants.queryStaleMs).toBe(300_000)
    expect(MoneyConstants.paymentCookieMinutes).toBe(20)
    expect(MoneyConstants.iframePollMs).toBe(15_000)
    expect(MoneyConstants.iframeAutoCloseMs).toBe(600_000)
    expect(Constants.clipboardFeedbackMs).toBe(2_000)
    expect(Constants.toastDurationMs).toBe(5_000)
    expect(Constants.modalResetDelayMs).toBe(500)
    expect(Constants.chatAttributesDelayMs).toBe(3_000)
  })

  it("other", () => {
    // "game list starts at 12 and grows by 12 per 'more'"
    expect(PAGE_SIZE).toBe(12)
    expect(Constants.registerBannerMinWidth).toBe(1100)
    expect(Constants.welcomeFreeSpins).toBe(125)
    expect(TextLimits.zipCode).toBe(7)
    expect(DateOfBirthBounds).toEqual({ min: "1900-01-01", max: "2005-12-31" })
    // "password: client check under 3 characters, display text at 8, server message says more than 8"
    expect(Constants.resetClientMinLength).toBe(3)
    expect(Constants.passwordMinLength).toBe(8)
    expect(Constants.escapeKeyCode).toBe(27)
  })
})
