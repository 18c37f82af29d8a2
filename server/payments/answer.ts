/** A gateway's answer as the adapters read it: its status and its JSON body (null when not JSON). */
export const jsonAnswer = async (
  res: Response,
): Promise<{ readonly status: number; readonly json: unknown }> => {
  const text = await res.text()
  try {
    return { status: res.status, json: text === "" ? null : JSON.parse(text) }
  } catch {
    return { status: res.status, json: null }
  }
}

/** Why a gateway could not be reached, in the words the adapters log. */
export const unreachable = (cause: unknown): string =>
  `unreachable: ${cause instanceof Error ? cause.message : String(cause)}`
