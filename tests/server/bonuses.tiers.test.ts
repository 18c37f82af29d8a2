/**
 * The spec's bonus tiers (section 9) as the database seeds them, on both backends: the promotions of
 * the first to the fifth deposit with their bands, caps and spins, exactly the spec's table (written
 * here as literal rows), none for a sixth deposit; and, for any deposit number and amount, the band
 * the rules choose from the SEEDED rows is the spec's row for it, with the bonus under its cap.
 *
 * Spec: "First deposit: 50% bonus plus 100 free spins up to 16 EUR; 125% plus 125 spins up to 50 EUR;
 * 200% plus 150 spins above that. Each has a max of 8,000 EUR. Second deposit: 150% plus 100 spins.
 * Third deposit: 100%. Fourth: 100%. Fifth: 200%. (Each plus 100 spins, max 8,000 EUR, limit 20.)"
 * ("promotions shown only when the user has fewer than 5 deposits": nothing for the sixth.)
 */
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type Band, bandFor, depositBonusOf } from "../../services/bonus-rules.ts"
import { describeBackends, type TestServer } from "./harness.ts"

interface SeededBand {
  readonly depositNumber: number
  readonly maxBonusEurCents: string
  readonly wageringMultiple: number
  readonly upToEurCents: string | null
  readonly percent: number
  readonly freeSpins: number
}

/** [deposit number, inclusive EUR-cent range of the deposit, percent, free spins] from the spec. */
const SPEC: ReadonlyArray<readonly [number, bigint, bigint | null, number, number]> = [
  [1, 0n, 1_600n, 50, 100],
  [1, 1_601n, 5_000n, 125, 125],
  [1, 5_001n, null, 200, 150],
  [2, 0n, null, 150, 100],
  [3, 0n, null, 100, 100],
  [4, 0n, null, 100, 100],
  [5, 0n, null, 200, 100],
]
const CAP = 800_000n
const MAX_AMOUNT = 10n ** 12n

describeBackends("bonuses: the spec's tiers as seeded", ({ start }) => {
  let server: TestServer
  let seeded: ReadonlyArray<SeededBand>
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
    seeded = await server.query<SeededBand>(
      `SELECT p.deposit_number AS "depositNumber", p.max_bonus_eur_cents::text AS "maxBonusEurCents",
              p.wagering_multiple AS "wageringMultiple", b.up_to_eur_cents::text AS "upToEurCents",
              b.percent, b.free_spins AS "freeSpins"
         FROM promotions p JOIN promotion_bands b ON b.promotion_id = p.id
        WHERE p.kind = 'deposit_bonus' AND p.active AND p.deposit_number IS NOT NULL
        ORDER BY p.deposit_number, b.up_to_eur_cents NULLS LAST`,
    )
  })
  afterAll(async () => {
    await server?.close()
  })

  const bandsOf = (depositNumber: number): ReadonlyArray<Band> =>
    seeded
      .filter((b) => b.depositNumber === depositNumber)
      .map((b) => ({
        upToEurCents: b.upToEurCents === null ? null : BigInt(b.upToEurCents),
        percent: b.percent,
        freeSpins: b.freeSpins,
      }))

  it("seeds exactly the spec's table: five deposits, 8,000 EUR caps, wagering 10×, nothing for the sixth", () => {
    expect(seeded.map((b) => [b.depositNumber, b.upToEurCents, b.percent, b.freeSpins])).toEqual([
      [1, "1600", 50, 100],
      [1, "5000", 125, 125],
      [1, null, 200, 150],
      [2, null, 150, 100],
      [3, null, 100, 100],
      [4, null, 100, 100],
      [5, null, 200, 100],
    ])
    expect(new Set(seeded.map((b) => b.maxBonusEurCents))).toEqual(new Set(["800000"]))
    expect(new Set(seeded.map((b) => b.wageringMultiple))).toEqual(new Set([10]))
  })

  it("any deposit number and amount: the seeded band is the spec's row, the bonus never above the cap", () => {
    const rows = fc
      .constantFrom(...SPEC)
      .chain((row) => fc.tuple(fc.constant(row), fc.bigInt({ min: row[1], max: row[2] ?? MAX_AMOUNT })))
    fc.assert(
      fc.property(rows, ([[depositNumber, , , percent, freeSpins], amount]) => {
        const band = bandFor(bandsOf(depositNumber), amount)
        expect(band).toMatchObject({ percent, freeSpins })
        const bonus = depositBonusOf(amount, band?.percent ?? 0, CAP)
        expect(bonus).toBeLessThanOrEqual(CAP)
        expect(bonus * 100n).toBeLessThanOrEqual(amount * BigInt(percent))
      }),
    )
    fc.assert(
      fc.property(fc.integer({ min: 6, max: 100 }), fc.bigInt({ min: 0n, max: MAX_AMOUNT }), (n, amount) => {
        expect(bandFor(bandsOf(n), amount)).toBeUndefined()
      }),
    )
  })
})
