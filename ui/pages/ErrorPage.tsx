import { ErrorPageTexts } from "../../services/rules.ts"

/**
 * Generic error page (spec section 2). "Go Back" is a full page load of /, which starts a fresh app
 * instead of resuming the one that failed.
 */
export const ErrorPage = () => (
  <main className="status-page" aria-labelledby="error-title">
    <div className="status-page__card">
      <h1 id="error-title" className="status-page__code">
        {ErrorPageTexts.code}
      </h1>
      <h2>{ErrorPageTexts.title}</h2>
      <p>{ErrorPageTexts.body}</p>
      <a className="button button--primary" href="/">
        {ErrorPageTexts.back}
      </a>
    </div>
  </main>
)
