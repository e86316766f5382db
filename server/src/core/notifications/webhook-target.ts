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
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** True for an address a webhook may not reach; IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as its IPv4 */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
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
 * loopback one). `allowPrivate` is the operator's KESTREL_WEBHOOKS_ALLOW_PRIVATE
 */
export async function resolveWebhookTarget(
  rawUrl: string,
  allowPrivate: boolean,
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
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad)
      throw refuse(
        `URL must point to a public address: ${host} resolves to ${bad.address}, a private, loopback or link-local address`,
      );
  }
  return { url, address: first };
}
