/**
 * The studio's catalogue: every title, its brand (the contract's `provider`), its segment, its
 * kind and the kind's parameters. Browser-safe data: the lobby, the studio pages and the verifier
 * all read it. Bet limits are in EUR cents; the casino converts them per currency.
 */
import type { CrashParams } from "./crash.ts"
import type { DiceParams } from "./dice.ts"
import type { MinesParams } from "./mines.ts"
import type { PlinkoParams } from "./plinko.ts"
import type { RouletteParams } from "./roulette.ts"
import type { SlotParams } from "./slot.ts"
import { slotMaths } from "./slot-maths.ts"

export type GameKind = "dice" | "crash" | "mines" | "plinko" | "roulette" | "slot"
export type Volatility = "low" | "medium" | "high"

/** The art of a title: the tile and the page draw with these colours (generated SVG, no images). */
export interface Palette {
  readonly background: string
  readonly primary: string
  readonly accent: string
  readonly text: string
}

/** A progressive jackpot the game feeds (1 % of each bet) and can win: hit when the next float < 1/odds. */
export interface JackpotSpec {
  readonly id: string
  readonly name: string
  readonly odds: number
}

/** Jackpot contribution, basis points of the bet (1 %), floored in minor units. */
export const JACKPOT_CONTRIBUTION_BP = 100n

export type KindParams =
  | { readonly kind: "dice"; readonly params: DiceParams }
  | { readonly kind: "crash"; readonly params: CrashParams }
  | { readonly kind: "mines"; readonly params: MinesParams }
  | { readonly kind: "plinko"; readonly params: PlinkoParams }
  | { readonly kind: "roulette"; readonly params: RouletteParams }
  | { readonly kind: "slot"; readonly params: SlotParams }

interface Common {
  readonly id: string
  /** The provider's own id of the game, what the launch call carries (here: the id). */
  readonly launchId: string
  /** The art's id: the tile is `/studio/art/{imageId}.svg`. */
  readonly imageId: string
  readonly name: string
  readonly brand: string
  readonly category: string
  readonly volatility: Volatility
  readonly tags: ReadonlyArray<string>
  readonly isNew: boolean
  readonly featured: boolean
  readonly jackpot: JackpotSpec | null
  /** Bet limits in EUR cents. */
  readonly minBetEur: bigint
  readonly maxBetEur: bigint
  readonly demo: boolean
  readonly palette: Palette
  /** One paragraph for the info panel. */
  readonly description: string
}

export type GameDefinition = Common & KindParams

export const brands: ReadonlyArray<string> = ["Lumen Play", "Red Comet", "Odd Owl", "Northern Reels"]

export const categories: ReadonlyArray<{
  readonly slug: string
  readonly name: string
  readonly order: number
}> = [
  { slug: "slots", name: "Video slots", order: 1 },
  { slug: "jackpot", name: "Jackpot slots", order: 2 },
  { slug: "classic", name: "Classic slots", order: 3 },
  { slug: "instant", name: "Instant games", order: 4 },
  { slug: "crash", name: "Crash", order: 5 },
  { slug: "table", name: "Table games", order: 6 },
]

export const jackpots: ReadonlyArray<JackpotSpec> = [
  { id: "aurora-mega", name: "Aurora Mega Jackpot", odds: 2_000_000 },
  { id: "comet-major", name: "Comet Major Jackpot", odds: 250_000 },
]
const mega = jackpots[0] ?? null
const major = jackpots[1] ?? null

const pal = (background: string, primary: string, accent: string, text = "#ffffff"): Palette => ({
  background,
  primary,
  accent,
  text,
})

const slotOf = (id: string): SlotParams => {
  const params = slotMaths[id]
  if (params === undefined) throw new Error(`no slot maths for ${id}`)
  return params
}

interface SlotTitle {
  readonly id: string
  readonly name: string
  readonly brand: string
  readonly category: "slots" | "classic" | "jackpot"
  readonly volatility: Volatility
  readonly tags: ReadonlyArray<string>
  readonly palette: Palette
  readonly isNew?: boolean
  readonly featured?: boolean
  readonly jackpot?: JackpotSpec | null
  readonly description: string
}

const slot = (t: SlotTitle): GameDefinition => ({
  id: t.id,
  launchId: t.id,
  imageId: t.id,
  name: t.name,
  brand: t.brand,
  category: t.category,
  volatility: t.volatility,
  tags: ["slot", "video slot", `${slotOf(t.id).lines} lines`, ...t.tags],
  isNew: t.isNew ?? false,
  featured: t.featured ?? false,
  jackpot: t.jackpot ?? null,
  minBetEur: 10n,
  maxBetEur: t.volatility === "high" ? 5_000n : 10_000n,
  demo: true,
  palette: t.palette,
  description: t.description,
  kind: "slot",
  params: slotOf(t.id),
})

const slots: ReadonlyArray<GameDefinition> = [
  slot({
    id: "aurora-vault",
    name: "Aurora Vault",
    brand: "Northern Reels",
    category: "slots",
    volatility: "high",
    tags: ["arctic", "aurora", "scatter"],
    palette: pal("#0b1d3a", "#7cf5c4", "#c9d6ff"),
    featured: true,
    description: "Polar lights over a frozen vault: big wild lines, rare and rich.",
  }),
  slot({
    id: "fjord-fortunes",
    name: "Fjord Fortunes",
    brand: "Northern Reels",
    category: "slots",
    volatility: "medium",
    tags: ["vikings", "sea", "scatter"],
    palette: pal("#12344d", "#5ad1e6", "#f4c542"),
    description: "Sail the fjords with jarls and shieldmaidens.",
  }),
  slot({
    id: "frost-giants",
    name: "Frost Giants",
    brand: "Northern Reels",
    category: "slots",
    volatility: "high",
    tags: ["mythology", "ice", "scatter"],
    palette: pal("#0d2137", "#a0e7ff", "#b388ff"),
    isNew: true,
    description: "Giants of ice on 25 lines; the frost rune pays anywhere.",
  }),
  slot({
    id: "midnight-sun",
    name: "Midnight Sun",
    brand: "Northern Reels",
    category: "slots",
    volatility: "low",
    tags: ["summer", "nature", "scatter"],
    palette: pal("#3b1f0e", "#ffb347", "#ffd700"),
    description: "A gentle 10-line game under a sun that never sets.",
  }),
  slot({
    id: "rune-forge",
    name: "Rune Forge",
    brand: "Northern Reels",
    category: "slots",
    volatility: "medium",
    tags: ["forge", "runes", "scatter"],
    palette: pal("#2b1a14", "#ff7043", "#9575cd"),
    description: "Hammer runes into gold on 25 lines.",
  }),
  slot({
    id: "viking-voyage",
    name: "Viking Voyage",
    brand: "Northern Reels",
    category: "slots",
    volatility: "medium",
    tags: ["vikings", "ships"],
    palette: pal("#1b2e24", "#66bb6a", "#d7ccc8"),
    isNew: true,
    description: "A dragon-prowed longship, 10 lines, no scatter: every win is on a line.",
  }),
  slot({
    id: "lantern-festival",
    name: "Lantern Festival",
    brand: "Lumen Play",
    category: "slots",
    volatility: "low",
    tags: ["festival", "asia", "scatter"],
    palette: pal("#3a0d12", "#ff5252", "#ffd740"),
    featured: true,
    description: "Frequent small wins under a sky full of lanterns.",
  }),
  slot({
    id: "prism-garden",
    name: "Prism Garden",
    brand: "Lumen Play",
    category: "slots",
    volatility: "medium",
    tags: ["garden", "rainbow", "scatter"],
    palette: pal("#24123a", "#ea80fc", "#ffeb3b"),
    description: "Light through a prism into a garden of orchids.",
  }),
  slot({
    id: "starlight-bloom",
    name: "Starlight Bloom",
    brand: "Lumen Play",
    category: "slots",
    volatility: "medium",
    tags: ["fairy", "night", "scatter"],
    palette: pal("#1a1440", "#b39ddb", "#fff176"),
    isNew: true,
    description: "Moonflowers open when the shooting star lands.",
  }),
  slot({
    id: "neon-koi",
    name: "Neon Koi",
    brand: "Lumen Play",
    category: "slots",
    volatility: "high",
    tags: ["koi", "neon", "asia", "scatter"],
    palette: pal("#031b2b", "#00e5ff", "#ff4081"),
    featured: true,
    description: "Neon carp leap the dragon gate: high volatility, 20 lines.",
  }),
  slot({
    id: "glowworm-grotto",
    name: "Glowworm Grotto",
    brand: "Lumen Play",
    category: "slots",
    volatility: "low",
    tags: ["cave", "crystals", "scatter"],
    palette: pal("#0f1f0a", "#c6ff00", "#84ffff"),
    description: "A cave lit by glowworms, 25 lines of small steady wins.",
  }),
  slot({
    id: "candy-lanterns",
    name: "Candy Lanterns",
    brand: "Lumen Play",
    category: "slots",
    volatility: "low",
    tags: ["candy", "sweet"],
    palette: pal("#3a0f2a", "#ff80ab", "#7c4dff"),
    description: "Sweets and lanterns on 10 lines.",
  }),
  slot({
    id: "rocket-fruit",
    name: "Rocket Fruit",
    brand: "Red Comet",
    category: "classic",
    volatility: "low",
    tags: ["fruit", "classic", "sevens"],
    palette: pal("#2a0a05", "#ff5722", "#ffee58"),
    description: "Fruit, bars and sevens, with a rocket for a wild.",
  }),
  slot({
    id: "cherry-comet",
    name: "Cherry Comet",
    brand: "Red Comet",
    category: "classic",
    volatility: "medium",
    tags: ["fruit", "classic", "cherries"],
    palette: pal("#2b0b0b", "#ff7043", "#d50000"),
    featured: true,
    description: "A classic fruit machine with a comet streak.",
  }),
  slot({
    id: "lucky-sevens",
    name: "Lucky Sevens Deluxe",
    brand: "Red Comet",
    category: "classic",
    volatility: "low",
    tags: ["sevens", "classic", "bells", "scatter"],
    palette: pal("#1f1400", "#ffd600", "#e53935"),
    description: "Sevens, bells and a horseshoe that pays anywhere.",
  }),
  slot({
    id: "meteor-gold",
    name: "Meteor Gold",
    brand: "Red Comet",
    category: "slots",
    volatility: "high",
    tags: ["space", "gold", "scatter"],
    palette: pal("#120b1f", "#ff6d00", "#ffd700"),
    description: "Gold nuggets from a falling meteor.",
  }),
  slot({
    id: "solar-flare",
    name: "Solar Flare",
    brand: "Red Comet",
    category: "slots",
    volatility: "high",
    tags: ["sun", "phoenix", "scatter"],
    palette: pal("#260d00", "#ffab00", "#ff3d00"),
    isNew: true,
    description: "A phoenix rides the flare across 25 lines.",
  }),
  slot({
    id: "hot-chili-reels",
    name: "Hot Chili Reels",
    brand: "Red Comet",
    category: "slots",
    volatility: "medium",
    tags: ["mexico", "food", "scatter"],
    palette: pal("#2a0505", "#d50000", "#ffc400"),
    description: "Mariachis, tacos and the hottest chili.",
  }),
  slot({
    id: "cactus-cowboys",
    name: "Cactus Cowboys",
    brand: "Red Comet",
    category: "slots",
    volatility: "medium",
    tags: ["western", "cowboys", "scatter"],
    palette: pal("#2d1f0e", "#ffd54f", "#43a047"),
    description: "A western town, a wanted poster, 10 lines.",
  }),
  slot({
    id: "owls-library",
    name: "Owl's Library",
    brand: "Odd Owl",
    category: "slots",
    volatility: "medium",
    tags: ["books", "owls", "magic", "scatter"],
    palette: pal("#1e1510", "#8d6e63", "#7e57c2"),
    featured: true,
    description: "A wise owl guards the spell book.",
  }),
  slot({
    id: "mushroom-circus",
    name: "Mushroom Circus",
    brand: "Odd Owl",
    category: "slots",
    volatility: "high",
    tags: ["circus", "mushrooms", "scatter"],
    palette: pal("#2a0a0a", "#e53935", "#fdd835"),
    isNew: true,
    description: "Roll up for a high-volatility circus on 10 lines.",
  }),
  slot({
    id: "clockwork-cats",
    name: "Clockwork Cats",
    brand: "Odd Owl",
    category: "slots",
    volatility: "low",
    tags: ["steampunk", "cats", "scatter"],
    palette: pal("#1f1a12", "#c0a062", "#b0bec5"),
    description: "Brass cats chase clockwork mice.",
  }),
  slot({
    id: "haunted-teacup",
    name: "Haunted Teacup",
    brand: "Odd Owl",
    category: "slots",
    volatility: "medium",
    tags: ["ghosts", "tea", "halloween", "scatter"],
    palette: pal("#12121f", "#e0e0e0", "#7c4dff"),
    description: "A ghostly tea party on 25 lines.",
  }),
  slot({
    id: "pirate-parrots",
    name: "Pirate Parrots",
    brand: "Odd Owl",
    category: "slots",
    volatility: "high",
    tags: ["pirates", "treasure", "scatter"],
    palette: pal("#0b2015", "#43a047", "#ffb300"),
    description: "The parrot knows where the chest is buried.",
  }),
  slot({
    id: "aurora-millions",
    name: "Aurora Millions",
    brand: "Northern Reels",
    category: "jackpot",
    volatility: "high",
    tags: ["jackpot", "progressive", "arctic", "scatter"],
    palette: pal("#001f24", "#64ffda", "#fff59d"),
    featured: true,
    jackpot: mega,
    description: "Every bet feeds the Aurora Mega Jackpot; any spin can win it.",
  }),
  slot({
    id: "comet-jackpot",
    name: "Comet Jackpot",
    brand: "Red Comet",
    category: "jackpot",
    volatility: "medium",
    tags: ["jackpot", "progressive", "space", "scatter"],
    palette: pal("#1a0c24", "#ff6e40", "#ffd740"),
    jackpot: major,
    description: "The Comet Major Jackpot, won by a provably fair draw.",
  }),
  slot({
    id: "golden-owl-jackpot",
    name: "Golden Owl Jackpot",
    brand: "Odd Owl",
    category: "jackpot",
    volatility: "medium",
    tags: ["jackpot", "progressive", "owls", "scatter"],
    palette: pal("#1f1600", "#ffd700", "#6d4c41"),
    isNew: true,
    jackpot: major,
    description: "A golden owl on 25 lines, feeding the Comet Major Jackpot.",
  }),
  slot({
    id: "lumen-treasure",
    name: "Lumen Treasure",
    brand: "Lumen Play",
    category: "jackpot",
    volatility: "low",
    tags: ["jackpot", "progressive", "treasure", "scatter"],
    palette: pal("#002a2a", "#18ffff", "#ffb300"),
    jackpot: mega,
    description: "Steady small wins and a shot at the Aurora Mega Jackpot.",
  }),
]

const base = (
  id: string,
  name: string,
  brand: string,
  category: string,
  volatility: Volatility,
  tags: ReadonlyArray<string>,
  palette: Palette,
  description: string,
  extra: Partial<Pick<Common, "isNew" | "featured">> = {},
) => ({
  id,
  launchId: id,
  imageId: id,
  name,
  brand,
  category,
  volatility,
  tags,
  isNew: extra.isNew ?? false,
  featured: extra.featured ?? false,
  jackpot: null,
  minBetEur: 10n,
  maxBetEur: 10_000n,
  demo: true,
  palette,
  description,
})

const originals: ReadonlyArray<GameDefinition> = [
  {
    ...base(
      "dice-classic",
      "Dice",
      "Lumen Play",
      "instant",
      "low",
      ["dice", "original", "provably fair"],
      pal("#0e1a2b", "#4f8cff", "#ffd166"),
      "Roll under or over your target; you choose the chance, the payout is 99 ÷ chance.",
      { featured: true },
    ),
    kind: "dice",
    params: { edgeBp: 100 },
  },
  {
    ...base(
      "lunar-dice",
      "Lunar Dice",
      "Northern Reels",
      "instant",
      "low",
      ["dice", "moon", "original"],
      pal("#101428", "#c5cae9", "#ffe082"),
      "Dice under the moon: a roll 0.00–99.99 against your target.",
    ),
    kind: "dice",
    params: { edgeBp: 100 },
  },
  {
    ...base(
      "owl-dice",
      "Owl Dice",
      "Odd Owl",
      "instant",
      "low",
      ["dice", "owls", "original"],
      pal("#1b140d", "#a1887f", "#ffcc80"),
      "The owl rolls: over or under, you set the odds.",
      { isNew: true },
    ),
    kind: "dice",
    params: { edgeBp: 100 },
  },
  {
    ...base(
      "comet-crash",
      "Comet Crash",
      "Red Comet",
      "crash",
      "high",
      ["crash", "rocket", "original"],
      pal("#14061f", "#ff6e40", "#ffd740"),
      "Set your auto-cashout; the comet flies until it crashes. Cash out before it does.",
      { featured: true },
    ),
    kind: "crash",
    params: { edgeBp: 100, maxTarget: 100_000 },
  },
  {
    ...base(
      "aurora-ascent",
      "Aurora Ascent",
      "Northern Reels",
      "crash",
      "high",
      ["crash", "aurora", "original"],
      pal("#001a1f", "#64ffda", "#b388ff"),
      "Ride the aurora up; your target up to 500×.",
    ),
    kind: "crash",
    params: { edgeBp: 100, maxTarget: 50_000 },
  },
  {
    ...base(
      "rocket-owl",
      "Rocket Owl",
      "Odd Owl",
      "crash",
      "high",
      ["crash", "owls", "original"],
      pal("#1a1208", "#ffb74d", "#4fc3f7"),
      "An owl strapped to a rocket; targets up to 10,000×.",
      { isNew: true },
    ),
    kind: "crash",
    params: { edgeBp: 100, maxTarget: 1_000_000 },
  },
  {
    ...base(
      "mines",
      "Mines",
      "Lumen Play",
      "instant",
      "medium",
      ["mines", "grid", "original"],
      pal("#0b1f17", "#2ecc71", "#ff5252"),
      "Pick tiles on a 5×5 field and avoid the mines; more mines and more picks pay more.",
      { featured: true },
    ),
    kind: "mines",
    params: { edgeBp: 100 },
  },
  {
    ...base(
      "gem-mines",
      "Gem Mines",
      "Red Comet",
      "instant",
      "medium",
      ["mines", "gems", "original"],
      pal("#1f0b18", "#ff4081", "#69f0ae"),
      "Gems or bombs: choose your tiles.",
    ),
    kind: "mines",
    params: { edgeBp: 100 },
  },
  {
    ...base(
      "ice-mines",
      "Ice Mines",
      "Northern Reels",
      "instant",
      "medium",
      ["mines", "ice", "original"],
      pal("#071a2b", "#81d4fa", "#ff8a65"),
      "Crack the ice, not the mine.",
      { isNew: true },
    ),
    kind: "mines",
    params: { edgeBp: 100 },
  },
  {
    ...base(
      "plinko",
      "Plinko",
      "Lumen Play",
      "instant",
      "medium",
      ["plinko", "balls", "original"],
      pal("#0f0f2b", "#7c4dff", "#ffd740"),
      "Drop the ball through 8–16 rows; low, medium or high risk tables.",
      { featured: true },
    ),
    kind: "plinko",
    params: { tableSet: "classic" },
  },
  {
    ...base(
      "plinko-storm",
      "Plinko Storm",
      "Red Comet",
      "instant",
      "high",
      ["plinko", "storm", "original"],
      pal("#0d1320", "#40c4ff", "#ff1744"),
      "Plinko with wilder tables: bigger edges, smaller middles.",
      { isNew: true },
    ),
    kind: "plinko",
    params: { tableSet: "storm" },
  },
  {
    ...base(
      "owl-drop",
      "Owl Drop",
      "Odd Owl",
      "instant",
      "medium",
      ["plinko", "owls", "original"],
      pal("#1a140a", "#ffca28", "#8d6e63"),
      "Feathers fall through the pegs.",
    ),
    kind: "plinko",
    params: { tableSet: "classic" },
  },
  {
    ...base(
      "european-roulette",
      "European Roulette",
      "Red Comet",
      "table",
      "low",
      ["roulette", "table", "single zero"],
      pal("#06281a", "#1b5e20", "#ffd54f"),
      "Single-zero roulette: from straight up to even money, every bet returns 36/37 of the stakes.",
      { featured: true },
    ),
    kind: "roulette",
    params: { maxChips: 100 },
  },
  {
    ...base(
      "neon-roulette",
      "Neon Roulette",
      "Lumen Play",
      "table",
      "low",
      ["roulette", "neon", "table"],
      pal("#12052b", "#e040fb", "#00e5ff"),
      "European roulette under neon lights.",
    ),
    kind: "roulette",
    params: { maxChips: 100 },
  },
  {
    ...base(
      "royal-roulette",
      "Royal Roulette",
      "Northern Reels",
      "table",
      "low",
      ["roulette", "royal", "table"],
      pal("#1f0a0a", "#b71c1c", "#ffd700"),
      "European roulette with a royal table limit.",
      { isNew: true },
    ),
    kind: "roulette",
    params: { maxChips: 200 },
  },
]

export const catalogue: ReadonlyArray<GameDefinition> = [...slots, ...originals]

const byId: ReadonlyMap<string, GameDefinition> = new Map(catalogue.map((g) => [g.id, g]))

export const gameById = (id: string): GameDefinition | undefined => byId.get(id)

export const gameByLaunchId = (launchId: string): GameDefinition | undefined =>
  catalogue.find((g) => g.launchId === launchId)
