/** The usage text of `npm run operator` (printed with every usage error, exit 2). */
export const usage = `usage: npm run operator -- <command> [options]

  login --email E                                   sign in (password, then the authenticator code, read
                                                    from the terminal or one line each on stdin) and
                                                    save an API token for the next commands
  logout                                            revoke that token on the server and forget it
  whoami                                            the operator the token acts as, with the role
  kyc pending                                       documents waiting for review
  kyc show    --email E                             a player's documents and their history
  kyc approve --email E --kind id|bill | --id DOC   approve the pending document
  kyc reject  --email E --kind id|bill | --id DOC --reason R
                                                    reject it (the player sees the reason)
  audit [--limit N]                                 the latest operator actions (N: 1 … 1000)
  rates list                                        every currency's EUR rate and minimums
  rates set CUR [--eur-rate D] [--min-deposit N] [--min-promotion N] [--min-withdraw N]
                                                    change them; D an exact decimal (EUR per whole
                                                    unit), N in the currency's MINOR units (cents)
  withdrawals list [--limit N]                      withdrawals waiting for a decision, oldest first
                                                    (N: 1 … 200; --status requested is the only status)
  withdrawals approve ID                            approve it; the payout starts where it can
  withdrawals reject ID --reason R                  reject it; the funds return to the player
  withdrawals mark-sent ID --tx HASH                record a manual crypto payout's transaction
  withdrawals mark-paid ID                          record that manual payout as confirmed (paid)
  promotions list                                   every promotion: kind, code, bands, terms, usage
  promotions show ID                                one promotion
  promotions create --id ID --kind deposit_bonus|free_spins --name N --band B [--band B…]
                    --max-bonus-eur E --wagering X --max-bet-eur E --valid-days D [promotion options]
  promotions update ID [promotion options]          change it; any --band replaces all its bands
  promotions deactivate ID                          switch it off: no offer, no grant, code refused
  promotions activate ID                            switch it on again
  operators add --email E --name N --role R         without a token, the bootstrap: a back-office
                                                    operator (R: support, kyc, payments, marketing,
                                                    admin) written to the database (DATABASE_URL or
                                                    DATA_DIR; through a running server, the first
                                                    admin only); prints its one-time password. A
                                                    token is refused: an admin adds colleagues in the
                                                    back office, signed in
  operators list                                    the back-office operators
    promotion options: --name N  --description D  --code C  --deposit-number K
      --band UPTO_EUR:PERCENT:SPINS (repeat, bounds increasing; UPTO_EUR "above" for the open band,
      exactly one, last)  --max-bonus-eur E  --wagering X (0…100)  --max-bet-eur E  --valid-days D
      --free-spin-game G --free-spin-bet-eur E  --currencies EUR,USD|all  --starts ISO  --ends ISO
      --max-uses N  --max-uses-per-player N  --unlock-deposit-eur E  --extra-bonus-percent P (free_spins:
      the deposit that unlocks their winnings, and the extra bonus it earns)
      E: EUR like 8000 or 0.20; ISO: 2027-01-31 (midnight UTC) or 2027-01-31T18:00:00Z;
      "none" clears --code, --deposit-number, --free-spin-game/--free-spin-bet-eur, --starts,
      --ends, --max-uses, --unlock-deposit-eur.

options: --json      machine-readable output
         --server U  the server (else CASINO_URL, the server of the saved login, the one running on
                     DATA_DIR, http://127.0.0.1:8080)
The token: OPERATOR_TOKEN, else the one \`login\` saved. See docs/operations.md.`
