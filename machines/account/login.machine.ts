/**
 * Login (spec sections 2, 4, 5, 8): email, password and captcha; sign-in failures mapped by status
 * (451 cool-off, 423 locked, anything else "incorrect"). Ends in `signedIn` with the session user;
 * the modal host updates auth and closes the modal.
 */
import { Effect } from "effect"
import { match, P } from "ts-pattern"
import { assign, setup } from "xstate"
import {
  AccountMessages,
  isBlockedDomain,
  isValidEmail,
  passwordLooksLong,
} from "../../services/account-rules.ts"
import { fromEffect } from "../../services/bridge.ts"
import { userClient } from "../../services/clients/user.ts"
import {
  AccountLocked,
  CaptchaFailed,
  CountryRestricted,
  InvalidCredentials,
  RateLimited,
  SelfExcluded,
} from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import { Messages } from "../../services/rules.ts"
import type { AuthStatus, SessionUser, SignInPayload } from "../../services/user-service.ts"
import type { FlowInput, FlowOutput } from "../flow.ts"
import {
  clientFailureClasses,
  type FieldErrors,
  failureFrom,
  httpStatusOf,
  requireUser,
  type ToastParams,
} from "../flowSupport.ts"

export const signInFailure = failureFrom([
  InvalidCredentials,
  AccountLocked,
  SelfExcluded,
  CountryRestricted,
  CaptchaFailed,
  RateLimited,
  ...clientFailureClasses,
])
export type SignInFailure = ReturnType<typeof signInFailure>

type LoginField = "email" | "password"

/** Where a sign-in failure is shown and with which of the spec's messages. */
export const signInFailureMessage = (
  failure: SignInFailure,
): { field: LoginField | "form" | "captcha"; message: string } =>
  match(failure)
    .with({ _tag: "SelfExcluded" }, () => ({ field: "form" as const, message: AccountMessages.loginCoolOff }))
    .with({ _tag: "AccountLocked" }, () => ({ field: "form" as const, message: AccountMessages.loginLocked }))
    .with({ _tag: "InvalidCredentials" }, () => ({
      field: "form" as const,
      message: AccountMessages.loginFailed,
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
        .with(451, () => ({ field: "form" as const, message: AccountMessages.loginCoolOff }))
        .with(423, () => ({ field: "form" as const, message: AccountMessages.loginLocked }))
        .with(P._, () => ({ field: "form" as const, message: AccountMessages.loginFailed }))
        .exhaustive(),
    )
    .with({ _tag: "SchemaError" }, { _tag: "UnexpectedError" }, () => ({
      field: "form" as const,
      message: AccountMessages.loginFailed,
    }))
    .exhaustive()

/** Failures the server did not describe (network, undecodable answer, defect): also toasted. */
const isClientFailure = (failure: SignInFailure): boolean =>
  match(failure)
    .with({ _tag: "ClientError" }, (e) => httpStatusOf(e) === null)
    .with({ _tag: "SchemaError" }, { _tag: "UnexpectedError" }, () => true)
    .otherwise(() => false)

export interface LoginContext {
  readonly email: string
  readonly password: string
  /** Spec section 4: the form's e-mail validity flag, kept current while typing. */
  readonly validEmail: boolean
  /** The password field's success style (above 3 characters). */
  readonly passwordLooksLong: boolean
  /** Spec section 4: set by the first submit; errors show only after it. */
  readonly submitted: boolean
  /** The verified ALTCHA payload, single use: null after any server answer. */
  readonly captcha: string | null
  /** Bumped whenever the captcha is spent; the view uses it as the widget's React key. */
  readonly captchaKey: number
  readonly errors: FieldErrors<LoginField>
  readonly blockedDomains: ReadonlyArray<string>
  readonly user: SessionUser | null
}

export type LoginEvent =
  | { readonly type: "CHANGE_EMAIL"; readonly value: string }
  | { readonly type: "CHANGE_PASSWORD"; readonly value: string }
  | { readonly type: "CAPTCHA_VERIFIED"; readonly payload: string }
  | { readonly type: "CAPTCHA_RESET" }
  | { readonly type: "SUBMIT" }

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    signIn: fromEffect((payload: SignInPayload) =>
      Effect.gen(function* () {
        return yield* userClient.signin({ payload })
      }),
    ),
  },
  guards: {
    emailIsInvalid: ({ context }) => !context.validEmail,
    emailIsBlocked: ({ context }) => isBlockedDomain(context.email.trim(), context.blockedDomains),
    passwordIsMissing: ({ context }) => context.password === "",
    captchaIsMissing: ({ context }) => context.captcha === null,
    isSignedIn: (_, params: { status: AuthStatus }) =>
      params.status.isAuthenticated && params.status.user !== null,
    isClientFailure: (_, params: { failure: SignInFailure }) => isClientFailure(params.failure),
  },
  actions: {
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
    acceptCaptcha: assign((_, params: { payload: string }) => ({ captcha: params.payload, errors: {} })),
    dropCaptcha: assign({ captcha: null }),
    /** The payload was sent: it cannot be used again, so mount a fresh widget. */
    spendCaptcha: assign(({ context }) => ({ captcha: null, captchaKey: context.captchaKey + 1 })),
    markSubmitted: assign({ submitted: true }),
    showError: assign((_, params: { field: LoginField | "form" | "captcha"; message: string }) => ({
      errors: { [params.field]: params.message },
    })),
    showSignInFailure: assign((_, params: { failure: SignInFailure }) => {
      const { field, message } = signInFailureMessage(params.failure)
      return { errors: { [field]: message } }
    }),
    rememberUser: assign((_, params: { status: AuthStatus }) => ({ user: params.status.user })),
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
  },
}).createMachine({
  id: "login",
  context: ({ input }) => ({
    email: "",
    password: "",
    validEmail: false,
    passwordLooksLong: false,
    submitted: false,
    captcha: null,
    captchaKey: 0,
    errors: {},
    blockedDomains: input.siteConfig.blockedEmailDomains,
    user: null,
  }),
  initial: "editing",
  output: ({ context }) => ({ type: "signedIn", user: requireUser(context.user) }),
  states: {
    editing: {
      on: {
        CHANGE_EMAIL: { actions: { type: "changeEmail", params: ({ event }) => ({ value: event.value }) } },
        CHANGE_PASSWORD: {
          actions: { type: "changePassword", params: ({ event }) => ({ value: event.value }) },
        },
        CAPTCHA_VERIFIED: {
          actions: { type: "acceptCaptcha", params: ({ event }) => ({ payload: event.payload }) },
        },
        CAPTCHA_RESET: { actions: "dropCaptcha" },
        SUBMIT: [
          {
            guard: "emailIsInvalid",
            actions: [
              "markSubmitted",
              { type: "showError", params: { field: "email", message: AccountMessages.invalidEmail } },
            ],
          },
          {
            guard: "emailIsBlocked",
            actions: [
              "markSubmitted",
              { type: "showError", params: { field: "email", message: AccountMessages.blockedDomainLogin } },
            ],
          },
          {
            guard: "passwordIsMissing",
            actions: [
              "markSubmitted",
              { type: "showError", params: { field: "password", message: AccountMessages.passwordTooShort } },
            ],
          },
          {
            guard: "captchaIsMissing",
            actions: [
              "markSubmitted",
              { type: "showError", params: { field: "captcha", message: AccountMessages.captchaRequired } },
            ],
          },
          { target: "submitting", actions: "markSubmitted" },
        ],
      },
    },
    submitting: {
      invoke: {
        id: "signIn",
        src: "signIn",
        input: ({ context }) => ({
          email: context.email.trim(),
          password: context.password,
          captcha: context.captcha ?? "",
        }),
        onDone: [
          {
            guard: { type: "isSignedIn", params: ({ event }) => ({ status: event.output }) },
            target: "signedIn",
            actions: [
              "spendCaptcha",
              { type: "rememberUser", params: ({ event }) => ({ status: event.output }) },
            ],
          },
          {
            target: "editing",
            actions: [
              "spendCaptcha",
              { type: "showError", params: { field: "form", message: AccountMessages.loginFailed } },
            ],
          },
        ],
        onError: [
          {
            guard: {
              type: "isClientFailure",
              params: ({ event }) => ({ failure: signInFailure(event.error) }),
            },
            target: "editing",
            actions: [
              "spendCaptcha",
              { type: "showSignInFailure", params: ({ event }) => ({ failure: signInFailure(event.error) }) },
              { type: "toast", params: { kind: "error", message: AccountMessages.signinDidNotWork } },
            ],
          },
          {
            target: "editing",
            actions: [
              "spendCaptcha",
              { type: "showSignInFailure", params: ({ event }) => ({ failure: signInFailure(event.error) }) },
            ],
          },
        ],
      },
    },
    signedIn: { type: "final" },
  },
})
