import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import {
  apiDocsPath,
  backofficeApiDocsPath,
  renderApiDocs,
  renderBackofficeApiDocs,
} from "../../scripts/generate-api-docs.ts"

describe("docs/api/openapi.json", () => {
  it("matches the contract (regenerate with `npm run docs:api`)", () => {
    expect(readFileSync(apiDocsPath, "utf8")).toBe(renderApiDocs())
  })

  it("documents the spec's paths verbatim", () => {
    const paths = Object.keys(JSON.parse(renderApiDocs()).paths)
    for (const path of [
      "/user-service/api/v1/signin",
      "/user-service/api/v1/signout",
      "/user-service/api/v1/registration",
      "/user-service/api/v1/registration/validate",
      "/user-service/api/v1/forgot-password",
      "/user-service/api/v1/change-password",
      "/user-service/api/v1/account/reset-password",
      "/user-service/api/v1/account/confirm",
      "/user-service/api/v1/account/resend",
      "/user-service/api/v1/isAuthenticated",
      "/ip-service/api/v1/user/currentIp",
      "/api/error-logger",
    ]) {
      expect(paths).toContain(path)
    }
  })
})

describe("docs/api/backoffice-openapi.json", () => {
  it("matches the back-office contract (regenerate with `npm run docs:api`)", () => {
    expect(readFileSync(backofficeApiDocsPath, "utf8")).toBe(renderBackofficeApiDocs())
  })

  it("documents the back office's sign-in and its operators", () => {
    const paths = Object.keys(JSON.parse(renderBackofficeApiDocs()).paths)
    for (const path of [
      "/api/backoffice/v1/login",
      "/api/backoffice/v1/login/totp",
      "/api/backoffice/v1/me",
      "/api/backoffice/v1/operators",
      "/api/backoffice/v1/audit",
    ]) {
      expect(paths).toContain(path)
    }
  })
})
