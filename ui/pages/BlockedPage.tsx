/** Country-blocked page (spec section 2): the only thing a visitor from a restricted country sees. */
export const BlockedPage = ({ country, supportEmail }: { country: string; supportEmail: string }) => (
  <main className="status-page" aria-labelledby="blocked-title">
    <div className="status-page__card">
      <p className="status-page__eyebrow">Access restricted</p>
      <h1 id="blocked-title">Not available in {country}</h1>
      <p>
        We are sorry, but our casino is not available in <strong>{country}</strong>.
      </p>
      <p>If you are using a VPN or a proxy, please turn it off and reload the page.</p>
      <p>
        Questions? Contact our support at <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
      </p>
    </div>
  </main>
)
