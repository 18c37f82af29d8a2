/** /terms — linked from the registration form's 18+ checkbox. */
export const TermsPage = ({ productName, supportEmail }: { productName: string; supportEmail: string }) => (
  <article className="page page--prose" aria-labelledby="terms-title">
    <h1 id="terms-title">Terms and Conditions</h1>
    <p className="page__lead">
      These terms govern your use of {productName}. By creating an account you confirm that you have read and
      accepted them.
    </p>
    <h2>1. Eligibility</h2>
    <p>
      You must be at least 18 years old, or the legal age for gambling in your jurisdiction if higher, to open
      an account. You may hold one account only. The service is not offered in restricted countries; access
      from them, including through a VPN or proxy, is not permitted.
    </p>
    <h2>2. Your account</h2>
    <p>
      Keep your password secret; you are responsible for activity under your account. The details you give
      must be true and complete. We may ask you to verify your identity and address before a withdrawal.
    </p>
    <h2>3. Deposits, bonuses and withdrawals</h2>
    <p>
      Deposits must come from payment methods in your own name. Bonus offers carry their own terms, shown with
      the offer. Withdrawals are paid to a verified method after identity and address verification; minimum
      and maximum amounts apply and are shown in the cashout window.
    </p>
    <h2>4. Responsible gambling</h2>
    <p>
      Gamble only with money you can afford to lose. You can set a cool-off period or self-exclude at any time
      from your profile; while it is active you cannot sign in. If gambling stops being fun, contact our
      support.
    </p>
    <h2>5. Closing an account</h2>
    <p>
      We may suspend or close an account involved in fraud, abuse of bonuses, or a breach of these terms.
      Funds that are lawfully yours are returned after verification.
    </p>
    <h2>6. Contact</h2>
    <p>
      Questions about these terms: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
    </p>
  </article>
)
