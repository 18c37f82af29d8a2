/**
 * An unexpected error as the shell keeps it until it is reported (`error-reporting.ts`): plain data,
 * so it can travel in events and survive a failed report.
 */
export interface CapturedError {
  readonly name: string
  readonly message: string
  readonly stack?: string
  readonly componentStack?: string
}

/** "Caused by: …" lines for an error's causes (a few deep), so the report keeps what went wrong below. */
const causeLines = (error: Error): string => {
  const lines: Array<string> = []
  let cause: unknown = error.cause
  for (let depth = 0; depth < 5 && cause !== undefined && cause !== null; depth++) {
    lines.push(
      cause instanceof Error ? `Caused by: ${cause.name}: ${cause.message}` : `Caused by: ${String(cause)}`,
    )
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return lines.join("\n")
}

export const toCapturedError = (error: unknown): CapturedError => {
  if (error instanceof Error) {
    const stack = [error.stack, causeLines(error)]
      .filter((part) => part !== undefined && part !== "")
      .join("\n")
    return { name: error.name, message: error.message, ...(stack === "" ? {} : { stack }) }
  }
  return { name: "Error", message: String(error) }
}
