/**
 * The local user record (spec section 3): name and user-id, kept in localStorage so the error
 * logger can say whose browser failed even when the session call is what broke.
 */
const KEY = "casino.user"

export interface LocalUser {
  readonly name: string
  readonly userId: string
}

const storage = (): Storage | undefined => (typeof localStorage === "undefined" ? undefined : localStorage)

export const rememberLocalUser = (user: LocalUser): void => storage()?.setItem(KEY, JSON.stringify(user))

export const forgetLocalUser = (): void => storage()?.removeItem(KEY)

export const readLocalUser = (): LocalUser | null => {
  const raw = storage()?.getItem(KEY)
  if (!raw) return null
  try {
    const parsed: unknown = JSON.parse(raw)
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "name" in parsed &&
      "userId" in parsed &&
      typeof parsed.name === "string" &&
      typeof parsed.userId === "string"
    ) {
      return { name: parsed.name, userId: parsed.userId }
    }
  } catch {
    // A corrupt record is as good as none.
  }
  return null
}
