/**
 * Every back-office endpoint × every role, walked from the contract (`BackofficeApi`, each endpoint
 * with its `Requires` and `Audits` annotations): allowed → answered (not 401/403); refused → 403 `Forbidden`
 * and the database unchanged; no session → 401 and unchanged. Then the audit: every successful
 * call of an endpoint writes exactly its one audit row (reads and the password step none), the
 * last admin cannot be demoted, and `operator_audit` refuses UPDATE and DELETE.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Chat } from "../../server/chat/Chat.ts"
import { defaultRateLimits, scaleRateLimits } from "../../server/config.ts"
import { OperatorAudit } from "../../server/operator/Audit.ts"
import { type Access, accessOf, auditsOf, isSessionOnly } from "../../services/backoffice/access.ts"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { can, type Role, roles } from "../../services/backoffice/permissions.ts"
import { newPlayer } from "./account-support.ts"
import { btcWithdrawals, moveOn, playerWithDocuments } from "./backoffice-queues-support.ts"
import { BO, codeAt, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import { fundedSession, playRound, studioUrlOf } from "./studio-round-support.ts"
import { Browser, type Reply } from "./users-support.ts"

const PASSWORD = "correct horse battery staple"
const emailOf = (role: Role) => `${role}@perm.example`

interface Endpoint {
  readonly key: string
  readonly method: string
  readonly path: string
  readonly access: Access | undefined
  readonly audits: ReadonlyArray<string>
  /** Refused to an API token: the browser session (password and TOTP) only. */
  readonly sessionOnly: boolean
}

/** Every endpoint of the contract, as `group.endpoint`, with what its annotations say. */
const endpointList: ReadonlyArray<Endpoint> = (() => {
  const found: Array<Endpoint> = []
  HttpApi.reflect(BackofficeApi, {
    onGroup: () => undefined,
    onEndpoint: ({ group, endpoint }) =>
      found.push({
        key: `${group.identifier}.${endpoint.identifier}`,
        method: endpoint.method,
        path: endpoint.path,
        access: accessOf(endpoint.annotations),
        audits: auditsOf(endpoint.annotations),
        sessionOnly: isSessionOnly(endpoint.annotations),
      }),
  })
  return found
})()

/**
 * What the database looks like to an operator: operators, their state, the audit, live sessions;
 * the settings (rates, games, promotions) and the CDN's settings files.
 */
const snapshot = async (server: TestServer) => ({
  ...(
    await server.query<Record<string, unknown>>(`
      SELECT (SELECT count(*)::int FROM backoffice_operators) AS operators,
             (SELECT string_agg(id::text || ':' || role || ':' || disabled::text || ':' || updated_at::text, ',' ORDER BY id)
                FROM backoffice_operators) AS state,
             (SELECT count(*)::int FROM operator_audit) AS audit,
             (SELECT count(*)::int FROM backoffice_sessions WHERE revoked_at IS NULL) AS live,
             (SELECT string_agg(id::text || ':' || status, ',' ORDER BY id) FROM verification_documents) AS documents,
             (SELECT string_agg(id::text || ':' || status, ',' ORDER BY id) FROM withdrawals) AS withdrawals,
             (SELECT string_agg(id::text || ':' || coalesce(locked_at::text, '-') || ':' || coalesce(locked_reason, '-'), ',' ORDER BY id)
                FROM users) AS players,
             (SELECT count(*)::int FROM sessions WHERE revoked_at IS NULL) AS "playerSessions",
             (SELECT count(*)::int FROM player_notes) AS notes,
             (SELECT string_agg(id::text || ':' || status, ',' ORDER BY id) FROM balance_adjustments) AS adjustments,
             (SELECT count(*)::int FROM ledger_entries) AS "ledgerEntries",
             (SELECT md5(string_agg(currency || eur_rate::text || min_deposit::text || min_promotion::text
                || min_withdraw::text || updated_at::text, ',' ORDER BY currency)) FROM currency_rates) AS rates,
             (SELECT md5(string_agg(id || enabled::text || coalesce(featured_override::text, '-')
                || coalesce(sort_override::text, '-'), ',' ORDER BY id)) FROM games) AS games,
             (SELECT md5(string_agg(to_jsonb(p)::text, ',' ORDER BY id)) FROM promotions p) AS promotions,
             (SELECT md5(string_agg(id::text || ':' || status || ':' || coalesce(assigned_operator_id::text, '-')
                || ':' || staff_read_id::text, ',' ORDER BY id)) FROM chat_conversations) AS chat,
             (SELECT count(*)::int FROM chat_messages) AS "chatMessages",
             (SELECT count(*)::int FROM backoffice_api_tokens) AS tokens,
             (SELECT count(*)::int FROM backoffice_api_tokens WHERE revoked_at IS NULL) AS "liveTokens"
    `)
  )[0],
  files: await Promise.all(
    ["restricted-countries.json", "recommended-games.json"].map((f) =>
      readFile(join(server.config.cdnDir, f), "utf8").catch(() => "missing"),
    ),
  ),
})

describeOn("postgres", "back-office permissions", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  const sessions = new Map<Role, Browser>()
  let targetId = ""
  let created = 0
  /** Items for the decisions: each successful call takes the next one (a refused call changes nothing). */
  const pools: Record<string, Array<string>> = {}
  const next = async (pool: string, call: (id: string) => Promise<Reply>): Promise<Reply> => {
    const id = pools[pool]?.[0] ?? "00000000-0000-4000-8000-000000000000"
    const reply = await call(id)
    if (reply.status < 300) pools[pool]?.shift()
    return reply
  }
  let playerId = ""
  let roundId = ""
  let conversationId = ""
  /** Pending adjustments (requested by an operator outside the walk), one spent per allowed decision. */
  const pending: Array<string> = []
  let keys = 0
  /** Each operator's own API tokens (by operator id), one spent per allowed revocation. */
  const ownTokens = new Map<string, Array<string>>()
  const operatorIdOf = async (b: Browser): Promise<string | undefined> => {
    const me = await b.get(`${BO}/me`)
    return me.status === 200 ? (me.body as { operator: { id: string } }).operator.id : undefined
  }

  beforeAll(async () => {
    // The studio beside the casino: a round's fairness proof is asked of its provider.
    server = await start(
      {
        captchaEnabled: false,
        backofficeClock: clock.read,
        rateLimits: scaleRateLimits(defaultRateLimits, 100),
      },
      { parties: ["studio"] },
    )
    for (const role of roles) {
      await createOperator(server, { email: emailOf(role), role, password: PASSWORD })
      sessions.set(role, await signIn(server, clock, emailOf(role), PASSWORD))
    }
    targetId = (
      await createOperator(server, { email: "target@perm.example", role: "support", password: PASSWORD })
    ).operator.id
    // Three successful calls per decision (kyc or payments, admin, the audit test); one spare.
    const uploads = await Promise.all([1, 2, 3, 4].map((i) => playerWithDocuments(server, `perm-kyc-${i}`)))
    pools.kycApprove = uploads.slice(0, 2).flatMap((u) => [u.id, u.bill])
    pools.kycReject = uploads.slice(2).flatMap((u) => [u.id, u.bill])
    const a = await btcWithdrawals(server, "perm-wd-a", 4)
    const b = await btcWithdrawals(server, "perm-wd-b", 4)
    const c = await btcWithdrawals(server, "perm-wd-c", 4)
    const d = await btcWithdrawals(server, "perm-wd-d", 4)
    pools.withdrawalApprove = [...a.ids]
    pools.withdrawalReject = [...b.ids]
    for (const id of c.ids) await moveOn(server, id, "approved")
    for (const id of d.ids) await moveOn(server, id, "sent")
    pools.withdrawalMarkSent = [...c.ids]
    pools.withdrawalMarkPaid = [...d.ids]
    pools.file = [uploads[0]?.id ?? ""]
    const player = await newPlayer(server, "bo-perm")
    playerId = await userIdOf(server, player.email)
    const { session } = await fundedSession(server, player, "dice-classic")
    roundId = (await playRound(studioUrlOf(server), session, { target: 50, direction: "under" })).roundId
    await createOperator(server, { email: "requester@perm.example", role: "payments", password: PASSWORD })
    const requester = await signIn(server, clock, "requester@perm.example", PASSWORD)
    for (let i = 0; i < 12; i++) {
      const reply = await requester.post(`${BO}/players/${playerId}/adjustments`, {
        currency: "EUR",
        amount: "1000000",
        reason: "goodwill",
        idempotencyKey: `perm-pending-${i}`,
      })
      if (reply.status !== 200)
        throw new Error(`pending adjustment: ${reply.status} ${JSON.stringify(reply.body)}`)
      pending.push((reply.body as { id: string }).id)
    }
    for (const role of roles) {
      const browser = sessions.get(role) as Browser
      const id = (await operatorIdOf(browser)) ?? ""
      const made: Array<string> = []
      for (let i = 0; i < 3; i++) {
        const reply = await browser.post(`${BO}/tokens`, { name: `perm ${role} ${i}` })
        if (reply.status !== 201) throw new Error(`token: ${reply.status} ${JSON.stringify(reply.body)}`)
        made.push((reply.body as { apiToken: { id: string } }).apiToken.id)
      }
      ownTokens.set(id, made)
    }
    // A game to set (the catalogue is empty without a game provider) and a promotion to change.
    await server.query(
      "INSERT INTO game_categories (slug, name, sort) VALUES ('perm', 'Perm', 999) ON CONFLICT DO NOTHING",
    )
    await server.query(`
      INSERT INTO games (id, launch_id, name, brand, integration, category, kind, volatility, rtp, image,
                         min_bet_eur, max_bet_eur, sort)
      VALUES ('perm-game', 'perm-game', 'Perm Game', 'Perm', 'perm', 'perm', 'dice', 'low', '99.00', '/x.svg',
              10, 1000, 999999) ON CONFLICT DO NOTHING`)
    await createPromotion(admin(), "perm-promo")
    // The player's conversation (replies, assignment, read marker) and visitors' ones to close.
    const chatSent = await player.browser.post("/chat-service/api/v1/chat/messages", { body: "Help, please" })
    if (chatSent.status !== 200) throw new Error(`chat: ${chatSent.status} ${JSON.stringify(chatSent.body)}`)
    conversationId = (
      await server.query<{ id: string }>(
        "SELECT id::text AS id FROM chat_conversations WHERE user_id = $1 AND status = 'open'",
        [playerId],
      )
    )[0]?.id as string
    pools.chatClose = []
    for (let i = 0; i < 5; i++) {
      await server.run(
        Effect.flatMap(Chat, (chat) =>
          chat.send({ kind: "visitor", tokenHash: `perm-visitor-${i}` }, "Hi", "192.0.2.1"),
        ),
      )
      const [row] = await server.query<{ id: string }>(
        "SELECT id::text AS id FROM chat_conversations WHERE visitor_token_hash = $1",
        [`perm-visitor-${i}`],
      )
      pools.chatClose.push(row?.id as string)
    }
  }, 120_000)

  const admin = () => sessions.get("admin") as Browser
  const createPromotion = (b: Browser, id: string) =>
    b.post(`${BO}/settings/promotions`, {
      id,
      kind: "deposit_bonus",
      name: `Promotion ${id}`,
      bands: ["above:100"],
      maxBonusEur: "100",
      wagering: "30",
      maxBetEur: "5",
      validDays: "30",
    })
  /** Countries added by the calls, removed by the next removal (so each call is a change). */
  const added: Array<string> = []
  const spare = ["DE", "FR", "IT", "ES", "NL", "BE", "AT", "PT", "IE", "FI", "SE", "DK", "PL", "CZ"]
  let calls = 0
  afterAll(() => server?.close())

  /** One call of each endpoint as `browser`; a new endpoint fails the first test until it is added here. */
  const call: Record<string, (browser: Browser) => Promise<Reply>> = {
    "login.login": (b) => b.post(`${BO}/login`, { email: "target@perm.example", password: PASSWORD }),
    "login.loginTotp": (b) => b.post(`${BO}/login/totp`, { code: "000000" }),
    "session.logout": (b) => b.post(`${BO}/logout`),
    "session.me": (b) => b.get(`${BO}/me`),
    "operators.listOperators": (b) => b.get(`${BO}/operators`),
    "operators.createOperator": (b) => {
      created += 1
      return b.post(`${BO}/operators`, {
        email: `new-${created}@perm.example`,
        name: "New One",
        role: "support",
      })
    },
    "operators.updateOperator": (b) =>
      b.call("PATCH", `${BO}/operators/${targetId}`, { role: created % 2 === 0 ? "kyc" : "support" }),
    "operators.audit": (b) => b.get(`${BO}/audit?limit=10`),
    "session.changePassword": (b) =>
      b.post(`${BO}/password`, { currentPassword: PASSWORD, newPassword: "another long pass phrase" }),
    "operators.resetOperator": (b) => b.post(`${BO}/operators/${targetId}/reset`, { what: "totp" }),
    "kyc.kycQueue": (b) => b.get(`${BO}/kyc/documents`),
    "kyc.kycFile": (b) => b.get(`${BO}/kyc/documents/${pools.file?.[0]}/file`),
    "kyc.kycApprove": (b) => next("kycApprove", (id) => b.post(`${BO}/kyc/documents/${id}/approve`)),
    "kyc.kycReject": (b) =>
      next("kycReject", (id) =>
        b.post(`${BO}/kyc/documents/${id}/reject`, { reason: "The photo is blurred." }),
      ),
    "withdrawals.withdrawalQueue": (b) => b.get(`${BO}/withdrawals?limit=50`),
    "withdrawals.withdrawal": (b) => b.get(`${BO}/withdrawals/${pools.withdrawalReject?.at(-1)}`),
    "withdrawals.withdrawalApprove": (b) =>
      next("withdrawalApprove", (id) => b.post(`${BO}/withdrawals/${id}/approve`)),
    "withdrawals.withdrawalReject": (b) =>
      next("withdrawalReject", (id) =>
        b.post(`${BO}/withdrawals/${id}/reject`, { reason: "Unusual activity." }),
      ),
    "withdrawals.withdrawalMarkSent": (b) =>
      next("withdrawalMarkSent", (id) =>
        b.post(`${BO}/withdrawals/${id}/mark-sent`, { txHash: "cd".repeat(32) }),
      ),
    "withdrawals.withdrawalMarkPaid": (b) =>
      next("withdrawalMarkPaid", (id) => b.post(`${BO}/withdrawals/${id}/mark-paid`)),
    "queues.queueCounts": (b) => b.get(`${BO}/queues`),
    "players.searchPlayers": (b) => b.get(`${BO}/players?q=bo-perm`),
    "players.getPlayer": (b) => b.get(`${BO}/players/${playerId}`),
    "players.roundFairness": (b) => b.get(`${BO}/players/${playerId}/rounds/${roundId}/fairness`),
    "players.lockPlayer": (b) => b.post(`${BO}/players/${playerId}/lock`, { reason: "fraud check" }),
    "players.unlockPlayer": (b) => b.post(`${BO}/players/${playerId}/unlock`, { reason: "cleared" }),
    "players.signOutPlayer": (b) => b.post(`${BO}/players/${playerId}/sign-out`),
    "players.addNote": (b) => b.post(`${BO}/players/${playerId}/notes`, { body: "called the player" }),
    "players.adjustBalance": (b) => {
      keys += 1
      return b.post(`${BO}/players/${playerId}/adjustments`, {
        currency: "EUR",
        amount: "100",
        reason: "goodwill",
        idempotencyKey: `perm-key-${keys}`,
      })
    },
    "players.listAdjustments": (b) => b.get(`${BO}/adjustments?status=pending`),
    // The next pending one; a refused or unauthenticated call leaves it pending, so it is kept.
    "players.approveAdjustment": (b) => decideNext(b, (id) => b.post(`${BO}/adjustments/${id}/approve`)),
    "players.rejectAdjustment": (b) =>
      decideNext(b, (id) => b.post(`${BO}/adjustments/${id}/reject`, { reason: "not agreed" })),
    "reports.dashboard": (b) => b.get(`${BO}/dashboard`),
    "reports.ggr": (b) => b.get(`${BO}/reports/ggr?from=2026-11-01&to=2026-11-30`),
    "reports.ggrCsv": (b) => b.get(`${BO}/reports/ggr.csv?from=2026-11-01&to=2026-11-30&currency=EUR`),
    "settings.listCountries": (b) => b.get(`${BO}/settings/countries`),
    "settings.addCountry": async (b) => {
      const code = spare.find((c) => !added.includes(c)) ?? "NO"
      const reply = await b.post(`${BO}/settings/countries`, { code })
      if (reply.status === 200) added.push(code)
      return reply
    },
    "settings.removeCountry": (b) =>
      b.call("DELETE", `${BO}/settings/countries/${added.at(-1) ?? "US"}`).then((r) => {
        if (r.status === 200) added.pop()
        return r
      }),
    "settings.listRates": (b) => b.get(`${BO}/settings/rates`),
    "settings.setRate": (b) => {
      calls += 1
      return b.call("PUT", `${BO}/settings/rates/EUR`, { minPromotion: String(1000 + calls) })
    },
    "settings.listGames": (b) => b.get(`${BO}/settings/games`),
    "settings.updateGame": (b) => {
      calls += 1
      return b.call("PATCH", `${BO}/settings/games/perm-game`, { order: 500_000 + calls })
    },
    "settings.listPromotions": (b) => b.get(`${BO}/settings/promotions`),
    "settings.showPromotion": (b) => b.get(`${BO}/settings/promotions/perm-promo`),
    "settings.createPromotion": (b) => {
      calls += 1
      return createPromotion(b, `perm-promo-${calls}`)
    },
    "settings.updatePromotion": (b) => {
      calls += 1
      return b.call("PATCH", `${BO}/settings/promotions/perm-promo`, { name: `Renamed ${calls}` })
    },
    "settings.setPromotionActive": async (b) => {
      const shown = (await admin().get(`${BO}/settings/promotions/perm-promo`)).body as { active: boolean }
      return b.post(`${BO}/settings/promotions/perm-promo/active`, { active: !shown.active })
    },
    "chat.listConversations": (b) => b.get(`${BO}/chat/conversations`),
    "chat.getConversation": (b) => b.get(`${BO}/chat/conversations/${conversationId}`),
    "chat.replyConversation": (b) =>
      b.post(`${BO}/chat/conversations/${conversationId}/reply`, { body: "We are on it." }),
    "chat.assignConversation": (b) =>
      b.post(`${BO}/chat/conversations/${conversationId}/assign`, { operatorId: "me" }),
    "chat.closeConversation": (b) =>
      next("chatClose", (id) => b.post(`${BO}/chat/conversations/${id}/close`)),
    "chat.markConversationRead": (b) =>
      b.post(`${BO}/chat/conversations/${conversationId}/read`, { lastReadId: "999999" }),
    "chat.cannedReplies": (b) => b.get(`${BO}/chat/canned-replies`),
    "tokens.listTokens": (b) => b.get(`${BO}/tokens`),
    "tokens.createToken": (b) => b.post(`${BO}/tokens`, { name: "walk", days: 7 }),
    // The caller's own next token (a signed-out caller has none: a made-up id).
    "tokens.revokeToken": async (b) => {
      const own = ownTokens.get((await operatorIdOf(b)) ?? "")
      const id = own?.[0] ?? "00000000-0000-4000-8000-000000000000"
      const reply = await b.call("DELETE", `${BO}/tokens/${id}`)
      if (reply.status < 300) own?.shift()
      return reply
    },
  }

  const decideNext = async (_b: Browser, send: (id: string) => Promise<Reply>): Promise<Reply> => {
    const id = pending[0]
    if (id === undefined) throw new Error("no pending adjustment left")
    const reply = await send(id)
    if (reply.status < 300) pending.shift()
    return reply
  }

  let ownPasswords = 0

  /**
   * A session of `role` to spend on a call that ends it (logout), or on an operator of its own for
   * a call that changes the signed-in operator (their password).
   */
  const sessionFor = async (role: Role, key: string): Promise<Browser> => {
    if (key === "session.logout") return signIn(server, clock, emailOf(role), PASSWORD)
    if (key === "session.changePassword") {
      ownPasswords += 1
      const email = `own-${ownPasswords}-${role}@perm.example`
      await createOperator(server, { email, role, password: PASSWORD })
      return signIn(server, clock, email, PASSWORD)
    }
    return sessions.get(role) as Browser
  }

  it("declares who may call every endpoint, only the two login steps public, and tests each", () => {
    expect(endpointList.filter((e) => e.access === undefined).map((e) => e.key)).toEqual([])
    expect(endpointList.filter((e) => e.access?.kind === "public").map((e) => e.key)).toEqual([
      "login.login",
      "login.loginTotp",
    ])
    expect(endpointList.map((e) => e.key).filter((key) => call[key] === undefined)).toEqual([])
  })

  it("keeps to the browser session what would let a token outlive its limits: tokens, passwords, operators", () => {
    expect(
      endpointList
        .filter((e) => e.sessionOnly)
        .map((e) => e.key)
        .sort(),
    ).toEqual([
      "operators.createOperator",
      "operators.resetOperator",
      "operators.updateOperator",
      "session.changePassword",
      "tokens.createToken",
    ])
  })

  const callOf = (key: string) => {
    const f = call[key]
    if (f === undefined) throw new Error(`no call for ${key}`)
    return f
  }

  for (const endpoint of endpointList.filter((e) => e.access?.kind !== "public")) {
    for (const role of roles) {
      const access = endpoint.access
      const allowed =
        access?.kind === "signedIn" || (access?.kind === "permission" && can(role, access.permission))
      it(`${endpoint.method} ${endpoint.path} as ${role}: ${allowed ? "allowed" : "403, nothing changed"}`, async () => {
        const browser = await sessionFor(role, endpoint.key)
        const before = await snapshot(server)
        const reply = await callOf(endpoint.key)(browser)
        if (allowed) {
          expect(reply.status, JSON.stringify(reply.body)).not.toBe(403)
          expect(reply.status).not.toBe(401)
          expect(reply.status).toBeLessThan(300)
        } else {
          expect(reply.status).toBe(403)
          expect((reply.body as { _tag: string })._tag).toBe("Forbidden")
          expect(await snapshot(server)).toEqual(before)
        }
      })
    }
    it(`${endpoint.method} ${endpoint.path} without a session: 401, nothing changed`, async () => {
      const before = await snapshot(server)
      const reply = await callOf(endpoint.key)(new Browser(server))
      expect(reply.status).toBe(401)
      expect((reply.body as { _tag: string })._tag).toBe("Unauthenticated")
      expect(await snapshot(server)).toEqual(before)
    })
  }

  it("every successful call writes exactly its one audit row (reads and the password step none)", async () => {
    const auditCount = async () =>
      (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM operator_audit"))[0]?.n ?? 0
    const lastAction = async () =>
      (
        await server.query<{ action: string }>("SELECT action FROM operator_audit ORDER BY id DESC LIMIT 1")
      )[0]?.action
    for (const endpoint of endpointList) {
      let browser = await sessionFor("admin", endpoint.key)
      let reply: Reply
      let before: number
      if (endpoint.key === "login.loginTotp") {
        browser = new Browser(server)
        await browser.post(`${BO}/login`, { email: emailOf("admin"), password: PASSWORD })
        clock.advance(30_000)
        before = await auditCount()
        reply = await browser.post(`${BO}/login/totp`, { code: codeAt(emailOf("admin"), clock) })
      } else {
        if (endpoint.key === "login.login") browser = new Browser(server)
        before = await auditCount()
        reply = await callOf(endpoint.key)(browser)
      }
      expect(reply.status, `${endpoint.key}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
      const written = (await auditCount()) - before
      expect(written, endpoint.key).toBe(endpoint.audits.length === 0 ? 0 : 1)
      if (endpoint.audits.length > 0) expect(endpoint.audits).toContain(await lastAction())
    }
  })

  it("records who, what, before and after, and from where", async () => {
    const admin = sessions.get("admin") as Browser
    const reply = await admin.call("PATCH", `${BO}/operators/${targetId}`, { disabled: true })
    expect(reply.status).toBe(200)
    const [row] = await server.query<Record<string, unknown>>(
      "SELECT actor, action, subject, operator_email, ip, before->>'disabled' AS was, after->>'disabled' AS now FROM operator_audit ORDER BY id DESC LIMIT 1",
    )
    expect(row).toEqual({
      actor: "backoffice:admin@perm.example",
      action: "operators.update",
      subject: targetId,
      operator_email: "admin@perm.example",
      ip: "127.0.0.1",
      was: "false",
      now: "true",
    })
    const page = await admin.get(`${BO}/audit?limit=2`)
    const entries = (page.body as { entries: Array<{ action: string; operatorId: string }> }).entries
    expect(entries).toHaveLength(2)
    expect(entries[0]?.action).toBe("operators.update")
  })

  it("refuses to demote or disable the last active admin, and changes nothing", async () => {
    // The admins made for the password-change calls step aside: this admin is the last one.
    await server.query("UPDATE backoffice_operators SET disabled = true WHERE email LIKE 'own-%'")
    const admin = sessions.get("admin") as Browser
    const me = (await admin.get(`${BO}/me`)).body as { operator: { id: string } }
    const before = await snapshot(server)
    for (const change of [{ role: "support" }, { disabled: true }]) {
      const reply = await admin.call("PATCH", `${BO}/operators/${me.operator.id}`, change)
      expect(reply.status).toBe(409)
      expect((reply.body as { _tag: string })._tag).toBe("LastAdmin")
    }
    expect(await snapshot(server)).toEqual(before)
  })

  it("answers bad input 400: unknown role, wrong types, nothing to change, bad paging", async () => {
    const admin = sessions.get("admin") as Browser
    expect(
      (await admin.post(`${BO}/operators`, { email: "x@perm.example", name: "X", role: "root" })).status,
    ).toBe(400)
    expect((await admin.call("PATCH", `${BO}/operators/${targetId}`, { disabled: "yes" })).status).toBe(400)
    expect((await admin.call("PATCH", `${BO}/operators/${targetId}`, {})).status).toBe(400)
    expect((await admin.call("PATCH", `${BO}/operators/not-a-uuid`, { role: "kyc" })).status).toBe(404)
    expect((await admin.get(`${BO}/audit?limit=0`)).status).toBe(400)
    expect((await admin.get(`${BO}/audit?before=abc`)).status).toBe(400)
    const dup = await admin.post(`${BO}/operators`, {
      email: "TARGET@perm.example",
      name: "Twin",
      role: "kyc",
    })
    expect(dup.status).toBe(409)
  })

  it("returns a generated initial password once, and never a secret or a hash", async () => {
    const admin = sessions.get("admin") as Browser
    const reply = await admin.post(`${BO}/operators`, {
      email: "fresh@perm.example",
      name: "Fresh",
      role: "kyc",
    })
    expect(reply.status).toBe(201)
    const body = reply.body as { operator: Record<string, unknown>; initialPassword: string }
    expect(body.initialPassword).toMatch(/^[A-Za-z0-9_-]{24}$/)
    const list = JSON.stringify((await admin.get(`${BO}/operators`)).body)
    expect(list).not.toContain(body.initialPassword)
    expect(list).not.toMatch(/"password"|password_?hash|totp|secret|\$argon2/i)
    // The generated password works (and leads to enrolment).
    const first = await new Browser(server).post(`${BO}/login`, {
      email: "fresh@perm.example",
      password: body.initialPassword,
    })
    expect((first.body as { step: string }).step).toBe("enrol")
  })

  it("a disabled operator's sessions end and their password no longer opens one", async () => {
    await createOperator(server, { email: "gone@perm.example", role: "support", password: PASSWORD })
    const gone = await signIn(server, clock, "gone@perm.example", PASSWORD)
    const list = (await sessions.get("admin")?.get(`${BO}/operators`))?.body as {
      operators: Array<{ id: string; email: string }>
    }
    const id = list.operators.find((o) => o.email === "gone@perm.example")?.id
    expect(
      (await sessions.get("admin")?.call("PATCH", `${BO}/operators/${id}`, { disabled: true }))?.status,
    ).toBe(200)
    expect((await gone.get(`${BO}/me`)).status).toBe(401)
    const again = await new Browser(server).post(`${BO}/login`, {
      email: "gone@perm.example",
      password: PASSWORD,
    })
    expect(again.status).toBe(401)
  })

  it("lists the latest audit entries by number, not as text (past the tenth entry)", async () => {
    const all = await server.query<{ id: string }>("SELECT id::text AS id FROM operator_audit")
    expect(all.length).toBeGreaterThan(10)
    const numeric = all
      .map((r) => Number(r.id))
      .sort((a, b) => b - a)
      .slice(0, 3)
      .map(String)
    const latest = await server.run(
      Effect.gen(function* () {
        const audit = yield* OperatorAudit
        return yield* audit.latest(3)
      }),
    )
    expect(latest.map((r) => r.id)).toEqual(numeric)
    const page = (await (sessions.get("admin") as Browser).get(`${BO}/audit?limit=3`)).body as {
      entries: Array<{ id: string }>
      next: string
    }
    expect(page.entries.map((e) => e.id)).toEqual(numeric)
    expect(page.next).toBe(numeric[2])
  })

  it("operator_audit is append-only: UPDATE, DELETE and TRUNCATE fail", async () => {
    const before = await snapshot(server)
    await expect(server.query("UPDATE operator_audit SET action = 'forged'")).rejects.toThrow()
    await expect(server.query("DELETE FROM operator_audit")).rejects.toThrow()
    await expect(server.query("TRUNCATE operator_audit")).rejects.toThrow()
    expect(await snapshot(server)).toEqual(before)
    const [forged] = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM operator_audit WHERE action = 'forged'",
    )
    expect(forged?.n).toBe(0)
  })
})
