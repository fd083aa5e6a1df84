/**
 * Where webhooks may deliver (server-side request forgery): never to this machine or a private
 * network unless WEBHOOKS_ALLOW_PRIVATE=true. Refused: unspecified, loopback, private (RFC
 * 1918), CGNAT (100.64/10), link-local, unique-local (fc00::/7), multicast, reserved and
 * documentation ranges, in IPv4 and IPv6, IPv4-mapped and NAT64 IPv6 judged by their IPv4
 * address. Ranges from the IANA special-purpose registries (RFC 6890 and updates), checked
 * with node's net.BlockList.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The 8 groups of an IPv6 address (a trailing dotted IPv4 part counts as two); null if bad. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const b = dotted[1].split('.').map(Number);
    const hex = (h: number, l: number) => ((h << 8) | l).toString(16);
    text = `${text.slice(0, -dotted[1].length)}${hex(b[0]!, b[1]!)}:${hex(b[2]!, b[3]!)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const h = part(head);
  const t = tail === undefined ? [] : part(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<number>(Math.max(fill, 0)).fill(0), ...t];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv6 address stands for (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96). */
function embeddedIpv4(groups: number[]): string | null {
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => !g);
  const compat = groups.slice(0, 6).every((g) => g === 0) && (groups[6] ?? 0) > 0; // ::a.b.c.d
  if (!mapped && !nat64 && !compat) return null;
  const [hi = 0, lo = 0] = groups.slice(6);
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** True when `address` (an IP address) is one webhooks must not reach by default. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true; // not an address: refuse rather than guess
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const v4 = embeddedIpv4(groups);
  if (v4) return blocked.check(v4, 'ipv4');
  return blocked.check(address.replace(/%.*$/, ''), 'ipv6');
}

/** Why a webhook URL is refused, or null; `url` already parsed. */
export function urlProblem(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `the scheme ${url.protocol.replace(/:$/, '')} is not allowed; use http or https`;
  }
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate) return null;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost is not allowed';
  if (isIP(host) && isPrivateAddress(host)) {
    return `${host} is a loopback, private or reserved address`;
  }
  return null;
}

/** An address a delivery may connect to. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves `host` (every address it has) and returns the first one, refusing the host when any
 * of its addresses is private (unless allowed): the delivery then connects to the address
 * checked here, so a DNS answer that changes between check and connect cannot redirect it.
 * @throws Error naming the host and the refused address, or the DNS failure
 */
export async function resolveDeliveryAddress(
  host: string,
  allowPrivate: boolean,
): Promise<CheckedAddress> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await lookup(bare, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!allowPrivate) {
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) {
      throw new Error(
        `${host} resolves to ${refused.address}, a loopback, private or reserved address (WEBHOOKS_ALLOW_PRIVATE is false)`,
      );
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
