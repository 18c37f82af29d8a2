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

export const toCapturedError = (error: unknown): CapturedError => {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
  }
  return { name: "Error", message: String(error) }
}
