import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { HttpError } from '../../lib/http-error';

/** One resolved address of a webhook host */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Name resolution, replaceable in tests (the system resolver by default) */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * Addresses a webhook must never reach (SSRF): this host, the private networks, link-local (cloud metadata lives at
 * 169.254.169.254), carrier-grade NAT, unique-local and the unspecified and multicast ranges
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // Forms that carry an IPv4 address inside: IPv4-compatible (`::127.0.0.1`, deprecated), 6to4 and Teredo. Their
  // IPv4 could be anything, this host included: none is a target a webhook needs
  ['::', 96],
  ['2002::', 16],
  ['2001::', 32],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address carries, in either spelling (`::ffff:127.0.0.1`, `::ffff:7f00:1`) */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^(?:0{0,4}:){0,4}:?:ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:0{0,4}:){0,4}:?:ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return undefined;
  const [hi, lo] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Whether `list` holds the address; IPv4-mapped IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is judged as its IPv4. Undefined for a
 * string that is no address
 */
function listed(list: BlockList, address: string): boolean | undefined {
  const mapped = mappedIpv4(address);
  if (mapped) return list.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return undefined;
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** True for an address a webhook may not reach (and for a string that is no address) */
export function isPrivateAddress(address: string): boolean {
  return listed(blocked, address) ?? true;
}

/**
 * The operator's exceptions to the SSRF guard (KESTREL_WEBHOOKS_ALLOW_HOSTS), for a self-hosted trader's own n8n or
 * Home Assistant on the LAN: host names whose addresses may be private, and address ranges that may be reached.
 * Everything else private stays refused
 */
export interface PrivateAllowance {
  /** Lower-case host names, exactly as in a URL (`homeassistant.lan`) */
  hosts: ReadonlySet<string>;
  /** Addresses and CIDR ranges (`192.168.1.20`, `192.168.1.0/24`, `fd00::/8`) */
  ranges: BlockList;
  /** The list as written, for messages */
  text: string;
}

/** The guard of one kind of outgoing call: all private addresses allowed (tests, a lab), or only the named ones */
export type TargetPolicy = { allowPrivate: true } | { allowPrivate: false; allowance?: PrivateAllowance };

/**
 * Reads a comma list of host names, addresses and CIDR ranges. Throws with the entry that is none of them: a typo
 * must not silently leave a LAN target refused, nor open more than was meant
 */
export function parsePrivateAllowance(
  text: string,
  setting = 'KESTREL_WEBHOOKS_ALLOW_HOSTS',
): PrivateAllowance {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const entry of text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [net, bitsText, extra] = entry.split('/');
    const family = isIP(net ?? '');
    if (family !== 0 && extra === undefined) {
      const max = family === 4 ? 32 : 128;
      const bits = bitsText === undefined ? max : /^\d+$/.test(bitsText) ? Number(bitsText) : Number.NaN;
      if (!(bits <= max)) throw new Error(`${setting}: ${entry} has a prefix length outside 0–${max}`);
      ranges.addSubnet(net as string, bits, family === 4 ? 'ipv4' : 'ipv6');
    } else if (
      bitsText === undefined &&
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(
        entry,
      )
    ) {
      hosts.add(entry.toLowerCase());
    } else {
      throw new Error(`${setting}: ${entry} is not a host name, an address or a CIDR range (192.168.1.0/24)`);
    }
  }
  return { hosts, ranges, text };
}

function allowedPrivate(allowance: PrivateAllowance | undefined, host: string, address: string): boolean {
  if (!allowance) return false;
  return allowance.hosts.has(host.toLowerCase()) || listed(allowance.ranges, address) === true;
}

/** Where one delivery goes: the URL and the address it was checked against (connected to, never re-resolved) */
export interface WebhookTarget {
  url: URL;
  address: ResolvedAddress;
}

const refuse = (message: string) => new HttpError(400, 'WEBHOOK_URL_REFUSED', message);

/**
 * Resolves the URL's host and checks every address it has; the first is the one to connect to. A host with any
 * private address is refused (a name with one public and one loopback address could otherwise be steered to the
 * loopback one), unless the operator allowed it: every private address (KESTREL_WEBHOOKS_ALLOW_PRIVATE) or the host
 * by name or its address by range (KESTREL_WEBHOOKS_ALLOW_HOSTS)
 */
export async function resolveWebhookTarget(
  rawUrl: string,
  policy: TargetPolicy,
  resolve: Resolver = systemResolver,
): Promise<WebhookTarget> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse('URL must be an http:// or https:// address');
  // URL keeps IPv6 literals in brackets
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw refuse(`URL host ${host} could not be resolved`);
    }
  }
  const first = addresses[0];
  if (!first) throw refuse(`URL host ${host} could not be resolved`);
  if (!policy.allowPrivate) {
    const { allowance } = policy;
    const bad = addresses.find(
      (a) => isPrivateAddress(a.address) && !allowedPrivate(allowance, host, a.address),
    );
    if (bad)
      throw refuse(
        `URL must point to a public address: ${host} resolves to ${bad.address}, a private, loopback or link-local address${
          allowance ? ` outside the server's allowed private hosts (${allowance.text})` : ''
        }`,
      );
  }
  return { url, address: first };
}
