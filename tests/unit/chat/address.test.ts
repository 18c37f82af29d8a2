/**
 * The address the chat's per-address limits count against (server/chat/address.ts): an IPv4
 * address as it is, an IPv6 address by its /64, whatever way the address is written.
 */
import { describe, expect, it } from "vitest"
import { chatAddressOf } from "../../../server/chat/address.ts"

describe("chatAddressOf", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["10.0.0.1", "10.0.0.1"],
    ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:db8:85a3:8d3::/64"],
    ["2001:db8:85a3:8d3::1", "2001:db8:85a3:8d3::/64"],
    ["2001:DB8:85A3:08D3:FFFF::", "2001:db8:85a3:8d3::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["1::2:3:4:5:6:7", "1:0:2:3::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["64:ff9b::198.51.100.1", "64:ff9b:0:0::/64"],
    ["1:2:3:4:5:6:1.2.3.4", "1:2:3:4::/64"],
  ])("%s counts as %s", (ip, expected) => {
    expect(chatAddressOf(ip)).toBe(expected)
  })

  it("puts every address of one /64 together and the next /64 apart", () => {
    const inside = [
      "2a00:1450:4001:82a::1",
      "2a00:1450:4001:82a:ffff:ffff:ffff:ffff",
      "2a00:1450:4001:82a:1:2::",
    ]
    expect(new Set(inside.map(chatAddressOf)).size).toBe(1)
    expect(chatAddressOf("2a00:1450:4001:82b::1")).not.toBe(chatAddressOf(inside[0] ?? ""))
  })
})
