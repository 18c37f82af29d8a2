import { Component, type ErrorInfo, type ReactNode } from "react"

/**
 * Render errors cannot be caught by machines; this boundary turns them into an UNEXPECTED_ERROR
 * event for the shell, which reports it and shows the 500 page.
 */
export class ErrorBoundary extends Component<
  { onError: (error: Error, componentStack: string) => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false }

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    this.props.onError(error, info.componentStack ?? "")
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children
  }
}
