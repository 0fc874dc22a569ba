/**
 * Which addresses the server may connect to on a tenant's (or an operator's) behalf, and which
 * hosts the operator has allow-listed (OUTBOUND_HTTP_ALLOW_HOSTS) for plain http: and private
 * addresses. Address classes come from ipaddr.js (IANA special-purpose registries), never from
 * hand-written masks: only globally routable unicast is "public".
 */
import ipaddr from "ipaddr.js";

/** One allow-list entry: a host name or IP (lower case, IPv6 without brackets), optionally one port. */
export interface AllowedHost {
  host: string;
  /** null: any port of this host. */
  port: number | null;
}

/** What every outgoing call is checked against. */
export interface OutboundPolicy {
  /** Hosts allowed over plain http: and to non-public addresses (tests' local fakes, an intranet relay). */
  allowHosts: readonly AllowedHost[];
  /** Whole-request deadline (connect, TLS, request, response head), ms. */
  timeoutMs: number;
}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;

/** Result of classifying one IP address. */
export interface AddressClass {
  /** True only for globally routable unicast addresses. */
  public: boolean;
  /** ipaddr.js range name of the address that decided (e.g. "loopback", "private", "linkLocal", "unicast"). */
  range: string;
}

/** IPv6 ranges whose last or embedded 32 bits are an IPv4 address the packet really goes to. */
function embeddedIpv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = addr.range();
  const p = addr.parts;
  const nat64WellKnown = range === "rfc6052" && p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0;
  if (range === "ipv4Mapped" || range === "rfc6145" || nat64WellKnown) {
    return new ipaddr.IPv4([(p[6]! >> 8) & 0xff, p[6]! & 0xff, (p[7]! >> 8) & 0xff, p[7]! & 0xff]);
  }
  if (range === "6to4") {
    return new ipaddr.IPv4([(p[1]! >> 8) & 0xff, p[1]! & 0xff, (p[2]! >> 8) & 0xff, p[2]! & 0xff]);
  }
  return null;
}

/**
 * Classifies an IP address string (IPv4, IPv6, IPv4-mapped IPv6, with or without brackets or zone).
 * Public means ipaddr.js calls it "unicast": loopback, private (RFC 1918), link-local (incl.
 * 169.254.169.254), unique-local (fc00::/7), multicast, unspecified, broadcast, CGNAT
 * (100.64.0.0/10), reserved, benchmarking, documentation and the like are all refused. IPv6
 * forms carrying an IPv4 address (::ffff:a.b.c.d, 64:ff9b::/96 NAT64, 2002::/16 6to4) are judged
 * by that IPv4 address. Anything unparsable is not public.
 */
export function classifyAddress(address: string): AddressClass {
  const text = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(text)) return { public: false, range: "invalid" };
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.zoneId !== undefined) return { public: false, range: "zoned" };
    const inner = embeddedIpv4(v6);
    if (inner) {
      const range = inner.range();
      return { public: range === "unicast", range };
    }
    const range = v6.range();
    return { public: range === "unicast", range };
  }
  const range = (parsed as ipaddr.IPv4).range();
  return { public: range === "unicast", range };
}

/** True when `host` is an IP literal (brackets allowed), i.e. no name resolution happens. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ""));
}

/**
 * Parses the OUTBOUND_HTTP_ALLOW_HOSTS value: comma-separated `host`, `host:port`, `[v6]` or
 * `[v6]:port`. Throws an Error naming the bad entry.
 */
export function parseAllowHosts(value: string | undefined): AllowedHost[] {
  if (!value) return [];
  const out: AllowedHost[] = [];
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(entry);
    const host = m ? (m[1] ?? m[2]) : undefined;
    const port = m?.[3] !== undefined ? Number(m[3]) : null;
    if (!m || !host || (port !== null && (port < 1 || port > 65535)) || (m[1] !== undefined && !ipaddr.IPv6.isValid(m[1]))) {
      throw new Error(`"${entry}" is not host or host:port`);
    }
    out.push({ host: normaliseHost(host), port });
  }
  return out;
}

function normaliseHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  return ipaddr.isValid(bare) ? ipaddr.parse(bare).toNormalizedString() : bare;
}

/** True when `host` (as in a URL, brackets allowed) on `port` is named by the allow-list. */
export function isAllowListed(policy: Pick<OutboundPolicy, "allowHosts">, host: string, port: number): boolean {
  const h = normaliseHost(host);
  return policy.allowHosts.some((a) => a.host === h && (a.port === null || a.port === port));
}
