export const Spinner = ({ label = "Loading" }: { label?: string }) => (
  <div className="spinner" role="status" aria-live="polite">
    <span className="spinner__ring" aria-hidden="true" />
    <span className="visually-hidden">{label}</span>
  </div>
)

/** The full-screen loading spinner (spec section 2): shown until the client IP is known. */
export const FullScreenSpinner = () => (
  <div className="fullscreen-center">
    <Spinner label="Loading the casino" />
  </div>
)
