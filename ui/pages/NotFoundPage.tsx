import { Link } from "../components/Link.tsx"

export const NotFoundPage = () => (
  <section className="page" aria-labelledby="not-found-title">
    <h1 id="not-found-title">Page not found</h1>
    <p>The page you are looking for does not exist.</p>
    <Link to="/" className="button button--primary">
      Back to the lobby
    </Link>
  </section>
)
