/** Each game kind's stylesheet and script module (the page carries only its own kind's). */
import type { GameDefinition } from "../../../services/games/catalogue.ts"
import { crashScript, crashStyle } from "./crash.ts"
import { diceScript, diceStyle } from "./dice.ts"
import { minesScript, minesStyle } from "./mines.ts"
import { plinkoScript, plinkoStyle } from "./plinko.ts"
import { rouletteScript, rouletteStyle } from "./roulette.ts"
import { slotScript, slotStyle } from "./slot.ts"

export const kindModule = (
  kind: GameDefinition["kind"],
): { readonly style: string; readonly script: string } => {
  switch (kind) {
    case "dice":
      return { style: diceStyle, script: diceScript }
    case "crash":
      return { style: crashStyle, script: crashScript }
    case "mines":
      return { style: minesStyle, script: minesScript }
    case "plinko":
      return { style: plinkoStyle, script: plinkoScript }
    case "roulette":
      return { style: rouletteStyle, script: rouletteScript }
    case "slot":
      return { style: slotStyle, script: slotScript }
  }
}
