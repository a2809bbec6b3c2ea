/**
 * Which IP addresses count as private: loopback, private networks, link-local, shared address
 * space, documentation, benchmarking, multicast, reserved and unspecified ranges, and IPv6
 * forms that carry an IPv4 address (mapped, NAT64, 6to4) judged by that address. web_fetch and
 * web_search reach only public addresses unless `web_allow_private` is set; the host checks every
 * address a name resolves to with `isPrivateAddress` before it connects, and again on every redirect.
 */

/** [first octets as a number, prefix length] of the IPv4 ranges that are not the public internet. */
const PRIVATE_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/** The IPv4 address as a 32-bit number, or undefined when `text` is not dotted-quad IPv4. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function inV4Range(n: number, base: string, bits: number): boolean {
  const b = parseIPv4(base)!;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(b / size);
}

function privateV4(n: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => inV4Range(n, base, bits));
}

/** The eight 16-bit groups of an IPv6 address, or undefined when `text` is not IPv6. */
export function parseIPv6(text: string): number[] | undefined {
  let t = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = t.indexOf('%');
  if (zone >= 0) t = t.slice(0, zone);
  if (!t.includes(':')) return undefined;
  // A trailing dotted quad stands for the last two groups.
  const lastColon = t.lastIndexOf(':');
  const tail = t.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (v4 === undefined) return undefined;
    t = `${t.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const read = (s: string): number[] | undefined => {
    if (s === '') return [];
    const groups = s.split(':');
    if (groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = read(halves[0]!);
  const rest = halves.length === 2 ? read(halves[1]!) : [];
  if (!head || !rest) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const fill = 8 - head.length - rest.length;
  if (fill < 1) return undefined;
  return [...head, ...new Array<number>(fill).fill(0), ...rest];
}

function privateV6(g: number[]): boolean {
  const v4At = (i: number) => g[i]! * 65536 + g[i + 1]!;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return true; // ::
  if (zeros(0, 7) && g[7] === 1) return true; // ::1
  if (zeros(0, 5) && g[5] === 0xffff) return privateV4(v4At(6)); // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 6)) return true; // ::a.b.c.d (deprecated compatible form)
  if (g[0] === 0x64 && g[1] === 0xff9b) return privateV4(v4At(6)); // 64:ff9b::/96 (NAT64)
  if (g[0] === 0x2002) return privateV4(v4At(1)); // 6to4 carries an IPv4 address
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0]! & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x0100 && zeros(1, 4)) return true; // 100::/64 discard
  return false;
}

/**
 * True when `address` (an IPv4 or IPv6 literal, IPv6 with or without brackets) is not a public
 * internet address. Anything that is not an IP literal counts as private, so a host that hands
 * back something unexpected is refused rather than reached.
 */
export function isPrivateAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4 !== undefined) return privateV4(v4);
  const v6 = parseIPv6(address);
  if (v6 !== undefined) return privateV6(v6);
  return true;
}

/** True when `host` (a URL's hostname) is written as an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  return parseIPv4(host) !== undefined || parseIPv6(host) !== undefined;
}
