/**
 * The operator's play rules per jurisdiction: the presets (Great Britain and Germany forbid autoplay
 * and turbo and set a least time per round), PLAY_RULES over them, and what a bad value says.
 */
import { describe, expect, it } from "vitest"
import { ConfigError, loadConfig } from "../../../server/config.ts"
import { parsePlayRules, playRulesFor } from "../../../server/games/playRules.ts"

const table = (text: string | undefined) => {
  const t = parsePlayRules(text)
  if ("error" in t) throw new Error(t.error)
  return t
}

describe("play rules", () => {
  it("presets: GB 2.5 s and DE 5 s with neither autoplay nor turbo; elsewhere everything allowed", () => {
    const t = table(undefined)
    expect(playRulesFor(t, "GB")).toEqual({ autoplay: false, turbo: false, minRoundMs: 2500 })
    expect(playRulesFor(t, "gb")).toEqual({ autoplay: false, turbo: false, minRoundMs: 2500 })
    expect(playRulesFor(t, "DE")).toEqual({ autoplay: false, turbo: false, minRoundMs: 5000 })
    for (const country of ["MT", "SE", "CA", "ZZ"])
      expect(playRulesFor(t, country)).toEqual({ autoplay: true, turbo: true, minRoundMs: 0 })
  })

  it("PLAY_RULES overrides the default and single countries, keeping the other presets", () => {
    const t = table(
      '{"default":{"autoplay":true,"turbo":false,"minRoundMs":1000},"nl":{"autoplay":false,"turbo":false,"minRoundMs":3000}}',
    )
    expect(playRulesFor(t, "NL")).toEqual({ autoplay: false, turbo: false, minRoundMs: 3000 })
    expect(playRulesFor(t, "MT")).toEqual({ autoplay: true, turbo: false, minRoundMs: 1000 })
    expect(playRulesFor(t, "GB")).toEqual({ autoplay: false, turbo: false, minRoundMs: 2500 })
    // An operator may relax a preset on purpose (e.g. for a market it does not serve).
    expect(playRulesFor(table('{"GB":{"autoplay":true,"turbo":true,"minRoundMs":0}}'), "GB")).toEqual({
      autoplay: true,
      turbo: true,
      minRoundMs: 0,
    })
    expect(table("  ")).toEqual(table(undefined))
  })

  it("a bad PLAY_RULES stops the server with the variable named", () => {
    for (const bad of [
      "not json",
      '{"GB":{"autoplay":false}}',
      '{"GB":{"autoplay":false,"turbo":false,"minRoundMs":-5}}',
      '{"GB":{"autoplay":false,"turbo":false,"minRoundMs":60001}}',
      '{"GB":{"autoplay":false,"turbo":false,"minRoundMs":2.5}}',
      '{"Britain":{"autoplay":false,"turbo":false,"minRoundMs":2500}}',
    ]) {
      expect("error" in parsePlayRules(bad)).toBe(true)
      expect(() => loadConfig({ PLAY_RULES: bad })).toThrow(ConfigError)
      expect(() => loadConfig({ PLAY_RULES: bad })).toThrow(/^PLAY_RULES=/)
    }
  })
})
