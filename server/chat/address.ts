/**
 * The address the chat's limits count against (docs/chat.md, "Limits per address"): an IPv4
 * address as it is, an IPv6 address by its /64. One subscriber is given a whole /64 and picks any
 * address in it, so counting single IPv6 addresses would let one visitor reset the limit at will.
 * Input is the client address as `Geo.clientIp` resolves it (normalized: IPv4-mapped IPv6 is
 * already IPv4).
 */
import { isIP } from "node:net"

/** The 16-bit groups of an IPv6 address, `::` expanded (an embedded IPv4 tail counts as two). */
const groupsOf = (ip: string): ReadonlyArray<number> => {
  const parse = (part: string): Array<number> =>
    part === ""
      ? []
      : part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [Number.parseInt(g, 16)]
          const [a = 0, b = 0, c = 0, d = 0] = g.split(".").map(Number)
          return [a * 256 + b, c * 256 + d]
        })
  const [head = "", tail] = ip.split("::")
  const left = parse(head)
  if (tail === undefined) return left
  const right = parse(tail)
  return [...left, ...Array.from({ length: 8 - left.length - right.length }, () => 0), ...right]
}

export const chatAddressOf = (ip: string): string => {
  if (isIP(ip) !== 6) return ip
  const prefix = groupsOf(ip.toLowerCase())
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")
  return `${prefix}::/64`
}
