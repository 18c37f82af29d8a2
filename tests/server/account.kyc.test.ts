/**
 * Verification documents on PostgreSQL: uploads detected by content (real JPEG, PNG and PDF
 * bytes; a renamed executable and ZIP refused), the size limit as a clean 413 (declared and
 * streamed), the lock while PENDING or APPROVED, review through the Kyc service with its audit
 * row, the profile's verified flags, history, and that one player never sees another's documents.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Kyc } from "../../server/kyc/Kyc.ts"
import { DOCUMENT_MAX_BYTES } from "../../services/profile-service.ts"
import {
  exeBytes,
  jpegBytes,
  newPlayer,
  PROFILE,
  pdfBytes,
  pngBytes,
  upload,
  zipBytes,
} from "./account-support.ts"
import { describeOn, type TestServer } from "./harness.ts"

const documentCount = async (server: TestServer, email: string): Promise<number> => {
  const rows = await server.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM verification_documents d JOIN users u ON u.id = d.user_id WHERE u.email = $1",
    [email],
  )
  return rows[0]?.n ?? -1
}

describeOn("postgres", "verification documents", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  it("needs a session", async () => {
    for (const path of ["id-verification", "bill-verification"]) {
      const res = await fetch(`${server.url}${PROFILE}/profile/${path}`)
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ _tag: "Unauthenticated" })
    }
    const anonymous = await fetch(`${server.url}${PROFILE}/profile/id-verification`, {
      method: "POST",
      body: (() => {
        const form = new FormData()
        form.append("file", new Blob([new Uint8Array(jpegBytes())], { type: "image/jpeg" }), "id.jpg")
        return form
      })(),
    })
    expect(anonymous.status).toBe(401)
  })

  it("accepts a JPEG, a PNG and a PDF by their content, stores them with their SHA-256, and locks while pending", async () => {
    const { browser, email } = await newPlayer(server, "kyc-ok")
    const empty = await browser.get(`${PROFILE}/profile/id-verification`)
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual({
      kind: "ID",
      status: "NONE",
      reason: null,
      fileName: null,
      contentType: null,
      size: null,
      uploadedAt: null,
      reviewedAt: null,
      history: [],
    })

    const jpeg = jpegBytes()
    // The browser's claimed type is ignored: the content decides.
    const id = await upload(
      browser,
      "id-verification",
      jpeg,
      "C:\\Users\\ada\\passport.jpeg",
      "application/octet-stream",
    )
    expect(id.status).toBe(200)
    expect(id.body).toMatchObject({
      kind: "ID",
      status: "PENDING",
      reason: null,
      fileName: "passport.jpeg",
      contentType: "image/jpeg",
      size: jpeg.length,
      reviewedAt: null,
    })
    const bill = await upload(browser, "bill-verification", pngBytes(), "bill.png", "image/png")
    expect(bill.status).toBe(200)
    expect(bill.body).toMatchObject({ kind: "BILL", status: "PENDING", contentType: "image/png" })

    // Stored durably with its hash: the database's own digest of the bytes matches.
    const stored = await server.query<{ sha256: string; digest: string; size: number }>(
      `SELECT d.sha256, encode(sha256(f.content), 'hex') AS digest, d.size
       FROM verification_documents d JOIN verification_document_files f ON f.document_id = d.id
       JOIN users u ON u.id = d.user_id WHERE u.email = $1 AND d.kind = 'ID'`,
      [email],
    )
    const { createHash } = await import("node:crypto")
    expect(stored).toEqual([
      {
        sha256: createHash("sha256").update(jpeg).digest("hex"),
        digest: createHash("sha256").update(jpeg).digest("hex"),
        size: jpeg.length,
      },
    ])

    const again = await upload(browser, "id-verification", pdfBytes(), "id.pdf", "application/pdf")
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ _tag: "DocumentLocked", status: "PENDING" })
    expect(await documentCount(server, email)).toBe(2)

    const other = await newPlayer(server, "kyc-pdf")
    const pdf = await upload(other.browser, "id-verification", pdfBytes(), "scan.pdf", "application/pdf")
    expect(pdf.status).toBe(200)
    expect(pdf.body).toMatchObject({ status: "PENDING", contentType: "application/pdf" })
  })

  it("refuses disguised and empty files with 415, and writes nothing", async () => {
    const { browser, email } = await newPlayer(server, "kyc-415")
    const cases: ReadonlyArray<readonly [Uint8Array, string, string]> = [
      [exeBytes(), "photo.jpg", "image/jpeg"],
      [zipBytes(), "bill.png", "image/png"],
      [
        new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
        "id.png",
        "image/png",
      ],
      [new TextEncoder().encode("GIF89a........"), "id.jpg", "image/jpeg"],
      [new Uint8Array(0), "empty.pdf", "application/pdf"],
    ]
    for (const [bytes, name, type] of cases) {
      const res = await upload(browser, "id-verification", bytes, name, type)
      expect(res.status, name).toBe(415)
      expect(res.body).toMatchObject({ _tag: "DocumentUnsupported" })
      expect(typeof (res.body as { message: unknown }).message).toBe("string")
    }
    expect(await documentCount(server, email)).toBe(0)
  })

  it("answers an oversized upload with 413 DocumentTooLarge, declared or streamed, and writes nothing", async () => {
    const { browser, email } = await newPlayer(server, "kyc-413")
    const withJpegHead = (size: number) => {
      const bytes = new Uint8Array(size)
      bytes.set(jpegBytes().subarray(0, 64))
      return bytes
    }
    // Refused by its Content-Length at the edge, before the body is read.
    const declared = await upload(
      browser,
      "id-verification",
      withJpegHead(DOCUMENT_MAX_BYTES + 70_000),
      "big.jpg",
      "image/jpeg",
    )
    expect(declared.status).toBe(413)
    expect(declared.body).toEqual({
      _tag: "DocumentTooLarge",
      message: expect.any(String),
      maxBytes: DOCUMENT_MAX_BYTES,
    })

    // Without a Content-Length: the multipart reader stops at its part limit while reading.
    const big = withJpegHead(DOCUMENT_MAX_BYTES + 10_000)
    const boundary = "----casino-test-boundary"
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    )
    const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`)
    const chunks = [head, big.subarray(0, DOCUMENT_MAX_BYTES / 2), big.subarray(DOCUMENT_MAX_BYTES / 2), tail]
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift()
        if (next === undefined) controller.close()
        else controller.enqueue(next)
      },
    })
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    const streamed = await fetch(`${server.url}${PROFILE}/profile/id-verification`, {
      method: "POST",
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        cookie,
        "x-forwarded-for": browser.ip ?? "",
      },
      body: stream,
      duplex: "half",
    } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(await streamed.json()).toMatchObject({ _tag: "DocumentTooLarge", maxBytes: DOCUMENT_MAX_BYTES })
    expect(await documentCount(server, email)).toBe(0)

    // Exactly at the limit is fine.
    const atLimit = new Uint8Array(DOCUMENT_MAX_BYTES)
    atLimit.set(pngBytes())
    const ok = await upload(browser, "bill-verification", atLimit, "max.png", "image/png")
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ status: "PENDING", size: DOCUMENT_MAX_BYTES })
    // One byte more, within the multipart reader's room for part headers: the service refuses it.
    const overByOne = await upload(
      browser,
      "id-verification",
      withJpegHead(DOCUMENT_MAX_BYTES + 1),
      "big.jpg",
      "image/jpeg",
    )
    expect(overByOne.status).toBe(413)
    expect(overByOne.body).toMatchObject({ _tag: "DocumentTooLarge" })
  })

  it("refuses a body that is not multipart, a form without the file part, with two files, or too many parts", async () => {
    const { browser, email } = await newPlayer(server, "kyc-400")
    const json = await browser.post(`${PROFILE}/profile/id-verification`, { file: "x" })
    expect(json.status).toBe(415)
    expect(json.body).toMatchObject({
      error: "UnsupportedMediaType",
      message: expect.stringContaining("multipart/form-data"),
    })
    const wrongPart = await upload(
      browser,
      "id-verification",
      jpegBytes(),
      "id.jpg",
      "image/jpeg",
      "document",
    )
    expect(wrongPart.status).toBe(400)
    expect(wrongPart.body).toMatchObject({ error: "BadRequest" })
    // Two files where one is expected: the contract's schema refuses the form.
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    const two = new FormData()
    for (const name of ["a.jpg", "b.jpg"]) two.append("file", new Blob([new Uint8Array(jpegBytes())]), name)
    const twoFiles = await fetch(`${server.url}${PROFILE}/profile/id-verification`, {
      method: "POST",
      headers: { cookie, "x-forwarded-for": browser.ip ?? "" },
      body: two,
    })
    expect(twoFiles.status).toBe(400)
    // More parts than the form may have: a 413 that names the form, not the document's size.
    const many = new FormData()
    for (let i = 0; i < 6; i++) many.append(`extra${i}`, "x")
    many.append("file", new Blob([new Uint8Array(jpegBytes())]), "id.jpg")
    const manyParts = await fetch(`${server.url}${PROFILE}/profile/id-verification`, {
      method: "POST",
      headers: { cookie, "x-forwarded-for": browser.ip ?? "" },
      body: many,
    })
    expect(manyParts.status).toBe(413)
    expect(await manyParts.json()).toMatchObject({ error: "PayloadTooLarge" })
    expect(await documentCount(server, email)).toBe(0)
  })

  it("review: rejection with a reason allows a new upload, approval sets the profile flag and locks; all audited", async () => {
    const { browser, email } = await newPlayer(server, "kyc-review")
    expect((await upload(browser, "id-verification", jpegBytes(), "id1.jpg", "image/jpeg")).status).toBe(200)
    const withKyc = <A, E>(f: (kyc: Kyc["Service"]) => Effect.Effect<A, E>) =>
      server.run(Effect.flatMap(Kyc, f))

    const rejected = await withKyc((kyc) =>
      kyc.reject({ email, kind: "ID", reason: "The photo is blurred.", actor: "test:reviewer" }),
    )
    expect(rejected).toMatchObject({ status: "REJECTED", reason: "The photo is blurred.", kind: "ID" })
    const afterReject = await browser.get(`${PROFILE}/profile/id-verification`)
    expect(afterReject.body).toMatchObject({ status: "REJECTED", reason: "The photo is blurred." })

    const second = await upload(browser, "id-verification", pngBytes(), "id2.png", "image/png")
    expect(second.status).toBe(200)
    expect(second.body).toMatchObject({ status: "PENDING", reason: null, fileName: "id2.png" })
    const history = (second.body as { history: ReadonlyArray<{ status: string; fileName: string }> }).history
    expect(history.map((h) => [h.status, h.fileName])).toEqual([
      ["PENDING", "id2.png"],
      ["REJECTED", "id1.jpg"],
    ])

    expect((await browser.get(`${PROFILE}/profile`)).body).toMatchObject({
      idVerification: { verified: false },
    })
    const approved = await withKyc((kyc) => kyc.approve({ email, kind: "ID", actor: "test:reviewer" }))
    expect(approved).toMatchObject({ status: "APPROVED", reason: null })
    const profile = await browser.get(`${PROFILE}/profile`)
    expect(profile.body).toMatchObject({
      idVerification: { verified: true },
      billVerification: { verified: false },
    })

    const locked = await upload(browser, "id-verification", jpegBytes(), "id3.jpg", "image/jpeg")
    expect(locked.status).toBe(409)
    expect(locked.body).toMatchObject({ _tag: "DocumentLocked", status: "APPROVED" })

    const audit = await server.query<{ actor: string; action: string; details: { reason: string | null } }>(
      "SELECT a.actor, a.action, a.details FROM operator_audit a JOIN users u ON u.id = a.user_id WHERE u.email = $1 ORDER BY a.id",
      [email],
    )
    expect(audit.map((a) => [a.actor, a.action, a.details.reason])).toEqual([
      ["test:reviewer", "kyc.reject", "The photo is blurred."],
      ["test:reviewer", "kyc.approve", null],
    ])

    // Nothing left to decide.
    const nothing = await withKyc((kyc) => Effect.flip(kyc.approve({ email, kind: "ID", actor: "t" })))
    expect(nothing).toMatchObject({ _tag: "KycReviewRefused", reason: "NothingPending" })
    const noReason = await withKyc((kyc) =>
      Effect.flip(kyc.reject({ email, kind: "BILL", reason: "  ", actor: "t" })),
    )
    expect(noReason).toMatchObject({ reason: "ReasonRequired" })
  })

  describe("authorisation", () => {
    it("a player sees only their own documents", async () => {
      const a = await newPlayer(server, "kyc-a")
      const b = await newPlayer(server, "kyc-b")
      expect((await upload(a.browser, "id-verification", jpegBytes(), "a-id.jpg", "image/jpeg")).status).toBe(
        200,
      )
      const seenByB = await b.browser.get(`${PROFILE}/profile/id-verification`)
      expect(seenByB.body).toMatchObject({ status: "NONE", history: [] })
      // B's upload is B's: A's pending document does not lock it.
      expect((await upload(b.browser, "id-verification", pngBytes(), "b-id.png", "image/png")).status).toBe(
        200,
      )
      const seenByA = await a.browser.get(`${PROFILE}/profile/id-verification`)
      expect((seenByA.body as { history: ReadonlyArray<unknown> }).history).toHaveLength(1)
      expect(seenByA.body).toMatchObject({ fileName: "a-id.jpg" })
    })
  })
})
