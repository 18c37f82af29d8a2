/**
 * Realistic data for the profile domain's models (machines/profile/*.model.ts) and actor tests
 * (tests/unit/profile): a profile half filled in, the country-code list, documents, sessions and
 * responsible-gaming settings as the contract describes them.
 */
import type { PlayerBonus, Promotion } from "../../services/bonus-service.ts"
import type { CountryCodes } from "../../services/cdn.ts"
import type { LoyaltyLevel, LoyaltyTier } from "../../services/loyalty-service.ts"
import type {
  PlayerSession,
  Profile,
  ResponsibleGaming,
  VerificationDocument,
} from "../../services/profile-service.ts"
import { fixtureAccount } from "../flowFixtures.ts"

/** A fresh registration: e-mail unconfirmed, names from the registration, nothing else. */
export const fixtureProfile: Profile = fixtureAccount.profile

/** The same player with a confirmed e-mail and everything filled in (every field read-only). */
export const completeProfile: Profile = {
  ...fixtureProfile,
  confirmed: true,
  receiveEmailPromo: true,
  userDetails: {
    phone: { phoneNumber: "21234567", dialingCode: "356" },
    address: "12 Republic Street",
    address2: null,
    nickName: "ada",
    zipCode: "VLT1117",
    country: "MT",
    city: "Valletta",
    state: "Valletta",
    gender: "FEMALE",
    dateOfBirth: 315_532_800,
    receiveEmailPromo: true,
  },
  lastLogin: { at: "2026-11-22T18:04:00Z", ip: "81.2.69.142", country: "United Kingdom" },
}

export const fixtureCountries: CountryCodes = [
  { name: "Germany", code: "DE", dialingCode: "49" },
  { name: "Malta", code: "MT", dialingCode: "356" },
  { name: "United Kingdom", code: "GB", dialingCode: "44" },
]

export const noDocument = (kind: VerificationDocument["kind"]): VerificationDocument => ({
  kind,
  status: "NONE",
  reason: null,
  fileName: null,
  contentType: null,
  size: null,
  uploadedAt: null,
  reviewedAt: null,
  history: [],
})

export const pendingDocument = (kind: VerificationDocument["kind"]): VerificationDocument => ({
  ...noDocument(kind),
  status: "PENDING",
  fileName: kind === "ID" ? "passport.jpg" : "bill.pdf",
  contentType: kind === "ID" ? "image/jpeg" : "application/pdf",
  size: 180_000,
  uploadedAt: "2026-11-23T09:00:00Z",
  history: [
    {
      id: `${kind}-1`,
      status: "PENDING",
      reason: null,
      fileName: kind === "ID" ? "passport.jpg" : "bill.pdf",
      uploadedAt: "2026-11-23T09:00:00Z",
      reviewedAt: null,
    },
  ],
})

export const fixtureSessions: ReadonlyArray<PlayerSession> = [
  {
    id: "s-current",
    browser: "Chrome 131 on Linux",
    ip: "127.0.0.1",
    country: "Malta",
    createdAt: "2026-11-23T08:00:00Z",
    lastSeenAt: "2026-11-23T09:30:00Z",
    current: true,
  },
  {
    id: "s-phone",
    browser: "Safari 18 on iOS",
    ip: "81.2.69.142",
    country: "United Kingdom",
    createdAt: "2026-11-20T19:12:00Z",
    lastSeenAt: "2026-11-22T21:40:00Z",
    current: false,
  },
]

const noLimit = { amount: null, pending: null, used: "0", remaining: null }

export const fixtureResponsibleGaming: ResponsibleGaming = {
  currency: "EUR",
  depositLimits: { daily: noLimit, weekly: noLimit, monthly: noLimit },
  remainingDeposit: null,
  realityCheckMinutes: null,
  selfExclusion: null,
}

// ── bonuses ─────────────────────────────────────────────────────────────────────────────────────

/** The first-deposit offer as the server seeds it (spec section 9). */
export const welcomeOffer: Promotion = {
  id: "welcome-1",
  kind: "deposit_bonus",
  name: "Welcome bonus",
  description: "Your first deposit: 50 % up to 16 EUR, 125 % up to 50 EUR, 200 % above, with free spins.",
  code: "WELCOME1",
  depositNumber: 1,
  bands: [
    { upToEurCents: "1600", percent: 50, freeSpins: 100 },
    { upToEurCents: "5000", percent: 125, freeSpins: 125 },
    { upToEurCents: null, percent: 200, freeSpins: 150 },
  ],
  maxBonusEurCents: "800000",
  wageringMultiple: 10,
  maxBetEurCents: "500",
  validDays: 30,
  freeSpinGame: null,
  currencies: null,
  endsAt: null,
  accepted: null,
}

/** 37.50 EUR from a first deposit of 30 EUR, 14.10 of 375.00 wagered. */
export const activeBonus: PlayerBonus = {
  id: "0b1c2d3e-4f50-4a61-8b72-9c83d4e5f601",
  promotionId: "welcome-1",
  name: "Welcome bonus",
  status: "active",
  currency: "EUR",
  amount: "3750",
  percent: 125,
  freeSpins: 125,
  wageringRequired: "37500",
  wagered: "1410",
  maxBet: "500",
  balance: "3350",
  expiresAt: "2026-12-27T10:00:00.000Z",
  createdAt: "2026-11-27T10:00:00.000Z",
  endedAt: null,
  endedAmount: null,
}

export const forfeitedBonus: PlayerBonus = {
  ...activeBonus,
  id: "1c2d3e4f-5061-4b72-8c83-9d94e5f60712",
  status: "forfeited",
  balance: "0",
  endedAt: "2026-11-20T10:00:00.000Z",
  endedAmount: "1200",
}

/** The seeded levels (migration 0071) as the loyalty call lists them. */
export const loyaltyTiers: ReadonlyArray<LoyaltyTier> = [
  { level: 1, name: "Bronze", minPoints: "0", cashbackBps: 0, withdrawLimitBps: 10000, perks: [] },
  {
    level: 2,
    name: "Silver",
    minPoints: "1000",
    cashbackBps: 200,
    withdrawLimitBps: 12500,
    perks: ["2 % weekly cashback on net losses, paid as cash", "Daily withdrawal limit ×1.25"],
  },
  {
    level: 3,
    name: "Gold",
    minPoints: "5000",
    cashbackBps: 500,
    withdrawLimitBps: 15000,
    perks: ["5 % weekly cashback on net losses, paid as cash", "Daily withdrawal limit ×1.5"],
  },
  {
    level: 4,
    name: "Platinum",
    minPoints: "25000",
    cashbackBps: 800,
    withdrawLimitBps: 20000,
    perks: ["8 % weekly cashback on net losses, paid as cash", "Daily withdrawal limit ×2"],
  },
  {
    level: 5,
    name: "Diamond",
    minPoints: "100000",
    cashbackBps: 1000,
    withdrawLimitBps: 30000,
    perks: ["10 % weekly cashback on net losses, paid as cash", "Daily withdrawal limit ×3"],
  },
]

/** A Silver player a quarter of the way to Gold. */
export const silverLevel: LoyaltyLevel = {
  level: 2,
  name: "Silver",
  points: "2000",
  nextLevel: { level: 3, name: "Gold", minPoints: "5000" },
  pointsToNext: "3000",
  progressPercent: 25,
  cashbackBps: 200,
  withdrawLimitBps: 12500,
  perks: ["2 % weekly cashback on net losses, paid as cash", "Daily withdrawal limit ×1.25"],
  levels: loyaltyTiers,
}
