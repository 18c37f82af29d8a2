/**
 * Register (spec sections 2, 3, 5, 8): full name, e-mail, password, currency (default EUR), an
 * optional bonus code behind a toggle, the required 18+ terms checkbox, captcha; the e-mail is
 * checked by the server (`email_status` must be VALID) before the registration is sent. The welcome
 * banner shows only on viewports wider than 1100 px. Ends in `registered` with the new session user;
 * the host signs in and navigates to /.
 */
import { Effect } from "effect"
import { match, P } from "ts-pattern"
import { assign, sendTo, setup } from "xstate"
import {
  AccountMessages,
  type EmailStatus,
  isAcceptablePassword,
  isBlockedDomain,
  isValidEmail,
  isValidFullName,
  looksLikeFullName,
  passwordLooksLong,
} from "../../services/account-rules.ts"
import { fromEffect } from "../../services/bridge.ts"
import { userClient } from "../../services/clients/user.ts"
import {
  CaptchaFailed,
  CountryRestricted,
  EmailTaken,
  RateLimited,
  RegistrationRefused,
  ValidationFailed,
} from "../../services/errors.ts"
import { Constants, Messages } from "../../services/rules.ts"
import type { AuthStatus, RegistrationPayload, SessionUser } from "../../services/user-service.ts"
import { couponCheckMachine } from "../couponCheck.machine.ts"
import type { FlowInput, FlowOutput } from "../flow.ts"
import {
  clientFailureClasses,
  type FieldErrors,
  failureFrom,
  httpStatusOf,
  requireUser,
} from "../flowSupport.ts"

/** Shown for a password longer than the contract allows (the field's maxLength normally prevents it). */
export const passwordTooLongMessage = `Password must be at most ${Constants.passwordMaxLength} characters`

export const registerFailure = failureFrom([
  EmailTaken,
  RegistrationRefused,
  ValidationFailed,
  CountryRestricted,
  CaptchaFailed,
  RateLimited,
  ...clientFailureClasses,
])
export type RegisterFailure = ReturnType<typeof registerFailure>

export const validateEmailFailure = failureFrom(clientFailureClasses)
export type ValidateEmailFailure = ReturnType<typeof validateEmailFailure>

export type RegisterField = "fullName" | "email" | "password" | "terms"
type ErrorSlot = RegisterField | "form" | "captcha"

/** Where a registration failure is shown and with which of the spec's messages. */
export const registerFailureMessage = (failure: RegisterFailure): { field: ErrorSlot; message: string } =>
  match(failure)
    .with({ _tag: "EmailTaken" }, () => ({
      field: "email" as const,
      message: AccountMessages.registerEmailTaken,
    }))
    .with({ _tag: "RegistrationRefused" }, () => ({
      field: "form" as const,
      message: AccountMessages.blockedDomainRegister,
    }))
    .with({ _tag: "ValidationFailed" }, () => ({
      field: "form" as const,
      message: AccountMessages.registerIncomplete,
    }))
    .with({ _tag: "CountryRestricted" }, () => ({
      field: "form" as const,
      message: Messages.countryRestricted,
    }))
    .with({ _tag: "CaptchaFailed" }, () => ({
      field: "captcha" as const,
      message: AccountMessages.captchaRequired,
    }))
    .with({ _tag: "RateLimited" }, (e) => ({
      field: "form" as const,
      message: Messages.tooManyAttempts(e.retryAfterSeconds),
    }))
    .with({ _tag: "ClientError" }, (e) =>
      match(httpStatusOf(e))
        .with(409, () => ({ field: "email" as const, message: AccountMessages.registerEmailTaken }))
        .with(P._, () => ({ field: "form" as const, message: AccountMessages.registerIncomplete }))
        .exhaustive(),
    )
    .with({ _tag: "SchemaError" }, { _tag: "UnexpectedError" }, () => ({
      field: "form" as const,
      message: AccountMessages.registerIncomplete,
    }))
    .exhaustive()

/** The e-mail check could not be made: the registration cannot go on. */
export const validateEmailFailureMessage = (failure: ValidateEmailFailure): string =>
  match(failure)
    .with(
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => AccountMessages.registerIncomplete,
    )
    .exhaustive()

/** The payload's language: the browser's primary language when the site offers it, else the site's first. */
export const pickLanguage = (requested: string, offered: ReadonlyArray<string>): string => {
  const primary = requested.trim().toLowerCase().split(/[-_]/)[0] ?? ""
  const match = offered.find((language) => language.toLowerCase() === primary)
  return match ?? offered[0] ?? "en"
}

export interface RegisterContext {
  readonly fullName: string
  readonly email: string
  readonly password: string
  readonly currency: string
  readonly bonusCodeOpen: boolean
  readonly registrationCode: string
  readonly terms: boolean
  /** The full-name field's styling check (letters and spaces). */
  readonly fullNameLooksValid: boolean
  readonly validEmail: boolean
  readonly passwordLooksLong: boolean
  readonly submitted: boolean
  readonly captcha: string | null
  readonly captchaKey: number
  readonly errors: FieldErrors<RegisterField>
  /** The "125 free spins" welcome banner: only on viewports wider than 1100 px. */
  readonly bannerVisible: boolean
  readonly blockedDomains: ReadonlyArray<string>
  readonly currencyCodes: ReadonlyArray<string>
  readonly languages: ReadonlyArray<string>
  readonly tutorialVideoUrl: string
  /** From the `clickId` cookie, read by the view and passed with SUBMIT. */
  readonly clickId: string | null
  readonly language: string
  readonly user: SessionUser | null
}

export type RegisterEvent =
  | { readonly type: "CHANGE_FULL_NAME"; readonly value: string }
  | { readonly type: "CHANGE_EMAIL"; readonly value: string }
  | { readonly type: "CHANGE_PASSWORD"; readonly value: string }
  | { readonly type: "CHANGE_CURRENCY"; readonly code: string }
  | { readonly type: "TOGGLE_BONUS_CODE" }
  | { readonly type: "CHANGE_BONUS_CODE"; readonly value: string }
  | { readonly type: "SET_TERMS"; readonly accepted: boolean }
  | { readonly type: "CAPTCHA_VERIFIED"; readonly payload: string }
  | { readonly type: "CAPTCHA_RESET" }
  | { readonly type: "VIEWPORT_CHANGED"; readonly width: number }
  | {
      readonly type: "SUBMIT"
      /** The `clickId` cookie's value, or null when there is none. */
      readonly clickId: string | null
      /** The browser's language (e.g. `navigator.language`). */
      readonly language: string
    }

/** Every field's problem at once, so one submit shows all of them. */
export const registerFieldErrors = (context: RegisterContext): FieldErrors<RegisterField> => {
  const errors: { -readonly [K in keyof FieldErrors<RegisterField>]: FieldErrors<RegisterField>[K] } = {}
  if (!isValidFullName(context.fullName)) errors.fullName = AccountMessages.fullName
  if (!context.validEmail) errors.email = AccountMessages.invalidEmail
  else if (isBlockedDomain(context.email.trim(), context.blockedDomains))
    errors.email = AccountMessages.blockedDomainRegister
  if (context.password.length < Constants.passwordMinLength)
    errors.password = AccountMessages.passwordMinDisplay(Constants.passwordMinLength)
  else if (!isAcceptablePassword(context.password)) errors.password = passwordTooLongMessage
  if (!context.terms) errors.terms = AccountMessages.termsRequired
  if (context.captcha === null) errors.captcha = AccountMessages.captchaRequired
  return errors
}

/** The spec's registration payload; registrationCode only when the bonus field is open and filled. */
export const registrationPayload = (context: RegisterContext): RegistrationPayload => {
  const code = context.registrationCode.trim()
  return {
    ...(context.clickId !== null && context.clickId !== "" ? { clickId: context.clickId } : {}),
    ...(context.bonusCodeOpen && code !== "" ? { registrationCode: code } : {}),
    email: context.email.trim(),
    password: context.password,
    fullName: context.fullName.trim(),
    terms: context.terms,
    language: context.language,
    currency: context.currency,
    captcha: context.captcha ?? "",
  }
}

export const registerMachine = setup({
  types: {
    context: {} as RegisterContext,
    events: {} as RegisterEvent,
    input: {} as FlowInput,
    output: {} as FlowOutput,
    children: {} as { coupon: "couponCheck" },
  },
  actors: {
    validateEmail: fromEffect((payload: { readonly email: string }) =>
      Effect.gen(function* () {
        return yield* userClient.validateEmail({ payload })
      }),
    ),
    /** The bonus code checked as it is typed (machines/couponCheck.machine.ts). */
    couponCheck: couponCheckMachine,
    register: fromEffect((payload: RegistrationPayload) =>
      Effect.gen(function* () {
        return yield* userClient.register({ payload })
      }),
    ),
  },
  guards: {
    bonusCodeIsOpen: ({ context }) => context.bonusCodeOpen,
    fullNameIsInvalid: ({ context }) => !isValidFullName(context.fullName),
    emailIsInvalid: ({ context }) => !context.validEmail,
    emailIsBlocked: ({ context }) => isBlockedDomain(context.email.trim(), context.blockedDomains),
    passwordIsUnacceptable: ({ context }) => !isAcceptablePassword(context.password),
    termsNotAccepted: ({ context }) => !context.terms,
    captchaIsMissing: ({ context }) => context.captcha === null,
    isOfferedCurrency: ({ context }, params: { code: string }) => context.currencyCodes.includes(params.code),
    viewportIsWide: (_, params: { width: number }) => params.width > Constants.registerBannerMinWidth,
    emailStatusIsValid: (_, params: { status: EmailStatus }) => params.status === "VALID",
    isSignedIn: (_, params: { status: AuthStatus }) =>
      params.status.isAuthenticated && params.status.user !== null,
  },
  actions: {
    changeFullName: assign((_, params: { value: string }) => ({
      fullName: params.value,
      fullNameLooksValid: looksLikeFullName(params.value),
      errors: {},
    })),
    changeEmail: assign((_, params: { value: string }) => ({
      email: params.value,
      validEmail: isValidEmail(params.value.trim()),
      errors: {},
    })),
    changePassword: assign((_, params: { value: string }) => ({
      password: params.value,
      passwordLooksLong: passwordLooksLong(params.value),
      errors: {},
    })),
    changeCurrency: assign((_, params: { code: string }) => ({ currency: params.code })),
    toggleBonusCode: assign(({ context }) => ({ bonusCodeOpen: !context.bonusCodeOpen })),
    changeBonusCode: assign((_, params: { value: string }) => ({ registrationCode: params.value })),
    checkBonusCode: sendTo("coupon", (_, params: { value: string }) => ({
      type: "CODE" as const,
      value: params.value,
    })),
    setTerms: assign((_, params: { accepted: boolean }) => ({ terms: params.accepted, errors: {} })),
    acceptCaptcha: assign((_, params: { payload: string }) => ({ captcha: params.payload, errors: {} })),
    dropCaptcha: assign({ captcha: null }),
    spendCaptcha: assign(({ context }) => ({ captcha: null, captchaKey: context.captchaKey + 1 })),
    showBanner: assign({ bannerVisible: true }),
    hideBanner: assign({ bannerVisible: false }),
    markSubmitted: assign({ submitted: true }),
    showFieldErrors: assign(({ context }) => ({ errors: registerFieldErrors(context) })),
    rememberSubmitter: assign(({ context }, params: { clickId: string | null; language: string }) => ({
      clickId: params.clickId,
      language: pickLanguage(params.language, context.languages),
    })),
    showEmailStatus: assign((_, params: { status: EmailStatus }) => ({
      errors: { email: AccountMessages.emailStatus(params.status) },
    })),
    showValidateEmailFailure: assign((_, params: { failure: ValidateEmailFailure }) => ({
      errors: { form: validateEmailFailureMessage(params.failure) },
    })),
    showRegisterFailure: assign((_, params: { failure: RegisterFailure }) => {
      const { field, message } = registerFailureMessage(params.failure)
      return { errors: { [field]: message } }
    }),
    showIncomplete: assign({ errors: { form: AccountMessages.registerIncomplete } }),
    rememberUser: assign((_, params: { status: AuthStatus }) => ({ user: params.status.user })),
  },
}).createMachine({
  id: "register",
  context: ({ input }) => ({
    fullName: "",
    email: "",
    password: "",
    currency:
      input.siteConfig.defaultCurrency === "" ? Constants.defaultCurrency : input.siteConfig.defaultCurrency,
    bonusCodeOpen: false,
    registrationCode: "",
    terms: false,
    fullNameLooksValid: false,
    validEmail: false,
    passwordLooksLong: false,
    submitted: false,
    captcha: null,
    captchaKey: 0,
    errors: {},
    bannerVisible: false,
    blockedDomains: input.siteConfig.blockedEmailDomains,
    currencyCodes: input.currencies.map((currency) => currency.code),
    languages: input.siteConfig.languages,
    tutorialVideoUrl: input.siteConfig.tutorialVideoUrl,
    clickId: null,
    language: pickLanguage("", input.siteConfig.languages),
    user: null,
  }),
  initial: "editing",
  output: ({ context }) => ({ type: "registered", user: requireUser(context.user) }),
  // For the whole form: what the code field says survives a refused submit.
  invoke: { id: "coupon", src: "couponCheck", onError: {} },
  on: {
    VIEWPORT_CHANGED: [
      {
        guard: { type: "viewportIsWide", params: ({ event }) => ({ width: event.width }) },
        actions: "showBanner",
      },
      { actions: "hideBanner" },
    ],
  },
  states: {
    editing: {
      on: {
        CHANGE_FULL_NAME: {
          actions: { type: "changeFullName", params: ({ event }) => ({ value: event.value }) },
        },
        CHANGE_EMAIL: { actions: { type: "changeEmail", params: ({ event }) => ({ value: event.value }) } },
        CHANGE_PASSWORD: {
          actions: { type: "changePassword", params: ({ event }) => ({ value: event.value }) },
        },
        CHANGE_CURRENCY: {
          guard: { type: "isOfferedCurrency", params: ({ event }) => ({ code: event.code }) },
          actions: { type: "changeCurrency", params: ({ event }) => ({ code: event.code }) },
        },
        TOGGLE_BONUS_CODE: { actions: "toggleBonusCode" },
        CHANGE_BONUS_CODE: {
          // The field exists only while the toggle is on.
          guard: "bonusCodeIsOpen",
          actions: [
            { type: "changeBonusCode", params: ({ event }) => ({ value: event.value }) },
            { type: "checkBonusCode", params: ({ event }) => ({ value: event.value }) },
          ],
        },
        SET_TERMS: { actions: { type: "setTerms", params: ({ event }) => ({ accepted: event.accepted }) } },
        CAPTCHA_VERIFIED: {
          actions: { type: "acceptCaptcha", params: ({ event }) => ({ payload: event.payload }) },
        },
        CAPTCHA_RESET: { actions: "dropCaptcha" },
        SUBMIT: [
          { guard: "fullNameIsInvalid", actions: ["markSubmitted", "showFieldErrors"] },
          { guard: "emailIsInvalid", actions: ["markSubmitted", "showFieldErrors"] },
          { guard: "emailIsBlocked", actions: ["markSubmitted", "showFieldErrors"] },
          { guard: "passwordIsUnacceptable", actions: ["markSubmitted", "showFieldErrors"] },
          { guard: "termsNotAccepted", actions: ["markSubmitted", "showFieldErrors"] },
          { guard: "captchaIsMissing", actions: ["markSubmitted", "showFieldErrors"] },
          {
            target: "checkingEmail",
            actions: [
              "markSubmitted",
              {
                type: "rememberSubmitter",
                params: ({ event }) => ({ clickId: event.clickId, language: event.language }),
              },
            ],
          },
        ],
      },
    },
    checkingEmail: {
      invoke: {
        id: "validateEmail",
        src: "validateEmail",
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: [
          {
            guard: {
              type: "emailStatusIsValid",
              params: ({ event }) => ({ status: event.output.email_status }),
            },
            target: "submitting",
          },
          {
            target: "editing",
            actions: {
              type: "showEmailStatus",
              params: ({ event }) => ({ status: event.output.email_status }),
            },
          },
        ],
        onError: {
          target: "editing",
          actions: {
            type: "showValidateEmailFailure",
            params: ({ event }) => ({ failure: validateEmailFailure(event.error) }),
          },
        },
      },
    },
    submitting: {
      invoke: {
        id: "register",
        src: "register",
        input: ({ context }) => registrationPayload(context),
        onDone: [
          {
            guard: { type: "isSignedIn", params: ({ event }) => ({ status: event.output }) },
            target: "registered",
            actions: [
              "spendCaptcha",
              { type: "rememberUser", params: ({ event }) => ({ status: event.output }) },
            ],
          },
          { target: "editing", actions: ["spendCaptcha", "showIncomplete"] },
        ],
        onError: {
          target: "editing",
          actions: [
            "spendCaptcha",
            {
              type: "showRegisterFailure",
              params: ({ event }) => ({ failure: registerFailure(event.error) }),
            },
          ],
        },
      },
    },
    registered: { type: "final" },
  },
})
