import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startLocal } from "./compose/local.ts"
const dataDir = mkdtempSync(join(tmpdir(), "dbg-"))
const stack = await startLocal({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "Warn", CAPTCHA: "off", CHAIN_SANDBOX: "off", ONRAMP_SANDBOX: "off", STUDIO: "off" })
const pay = stack.parties.get("payments")!
const secret = readFileSync(join(dataDir, "payments", "secret"), "utf8").trim()
const put = await fetch(`${pay.url}/sandbox-pay/control/gateways/paystudio`, { method: "PUT", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ rule: "down" }) })
console.log("put", put.status, await put.text())
const get = await fetch(`${pay.url}/sandbox-pay/control/gateways/paystudio`, { headers: { authorization: `Bearer ${secret}` } })
console.log("get", get.status, await get.text())
const gw = JSON.parse(stack.config.paymentGateways ? JSON.stringify(stack.config.paymentGateways) : "[]").find((g: any) => g.code === "paystudio")
const init = await fetch(`${gw.baseUrl}/card/paystudio/payments`, { method: "POST", headers: { authorization: `Bearer ${gw.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ reference: "r1", amount: "3000", currency: "EUR", customer: {}, returnUrl: "http://x.example/r", notifyUrl: "http://x.example/n", language: "en" }) })
console.log("init", init.status, (await init.text()).slice(0, 200))
await stack.close(); process.exit(0)
