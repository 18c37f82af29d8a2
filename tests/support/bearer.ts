/**
 * A call with an operator API token (`Authorization: Bearer bo_…`, docs/backoffice.md "API
 * tokens") and nothing else: no cookie, no Origin, the way a script sends it. Shared by the server
 * and e2e tests.
 */
export interface BearerReply {
  readonly status: number
  readonly headers: Headers
  /** Parsed when the answer is JSON, else the raw text. */
  readonly body: unknown
}

export const bearerFetch = async (
  url: string,
  token: string,
  method: string,
  body?: unknown,
): Promise<BearerReply> => {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body !== undefined) headers["content-type"] = "application/json"
  const res = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  const json = (res.headers.get("content-type") ?? "").includes("json") && text !== ""
  return { status: res.status, headers: res.headers, body: json ? (JSON.parse(text) as unknown) : text }
}
