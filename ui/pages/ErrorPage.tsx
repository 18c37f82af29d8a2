/**
 * Generic error page (spec section 2). "Go Back" is a full page load of /, which starts a fresh app
 * instead of resuming the one that failed.
 */
export const ErrorPage = () => (
  <main className="status-page" aria-labelledby="error-title">
    <div className="status-page__card">
      <h1 id="error-title" className="status-page__code">
        500
      </h1>
      <h2>Error :(</h2>
      <p>We are sorry. This was unexpected.</p>
      <a className="button button--primary" href="/">
        Go Back
      </a>
    </div>
  </main>
)
