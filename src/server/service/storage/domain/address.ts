/**
 * Who is calling, for limitedPublic allow lists: the socket's address, or the address a trusted
 * proxy appended to X-Forwarded-For, matched against IPs and CIDR ranges (IPv4 and IPv6).
 */
import ipaddr from "ipaddr.js";

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`, what a dual-stack socket reports) becomes plain IPv4. */
function parse(address: string): Parsed | undefined {
  const bare = address.trim().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

export interface AllowList {
  allows(address: string | undefined): boolean;
}

/** Builds a matcher from entries like `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`. Throws on a bad entry. */
export function compileAllowList(entries: string[]): AllowList {
  const ranges = entries.map((entry): [Parsed, number] => {
    if (entry.includes("/")) {
      let range: [Parsed, number];
      try {
        range = ipaddr.parseCIDR(entry.trim());
      } catch {
        throw new Error(`"${entry}" is not a valid CIDR range (for example 10.0.0.0/8 or fd00::/8).`);
      }
      const [addr, bits] = range;
      // ::ffff:10.0.0.0/104 means 10.0.0.0/8: addresses are compared as IPv4 after parse().
      if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
      }
      return range;
    }
    const addr = parse(entry);
    if (!addr) throw new Error(`"${entry}" is not a valid IP address.`);
    return [addr, addr.kind() === "ipv4" ? 32 : 128];
  });
  return {
    allows(address) {
      if (!address) return false;
      const addr = parse(address);
      if (!addr) return false;
      return ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
    },
  };
}

/**
 * The client address: the socket's, unless the service is configured to trust a proxy, in
 * which case the right-most X-Forwarded-For entry (the one our proxy appended; anything to its
 * left came from the client and can be forged).
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: boolean): string | undefined {
  if (!trustProxy || forwardedFor === undefined) return socketAddress;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor;
  const last = header
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .at(-1);
  return last ?? socketAddress;
}
