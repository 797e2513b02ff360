import { BlockList, isIPv6 } from "node:net";
import { hostname, networkInterfaces } from "node:os";

// Where a listening sandbox can be reached: the origins it prints, and the names its control API answers to (a Host
// header naming anything else is refused, which stops DNS rebinding). And who reaches it: the peer a connection comes
// from, which the gateway's per-peer caps count by.

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");
loopback.addSubnet("::ffff:127.0.0.0", 104, "ipv6");

/** Whether an address is a loopback one (127.0.0.0/8, `::1`, or 127.x mapped to IPv6). */
export function isLoopback(address: string): boolean {
  return loopback.check(address, isIPv6(address) ? "ipv6" : "ipv4");
}

/** An IPv6 address's first 64 bits (`2001:db8:0:1::/64`): the network one host is usually given whole. */
function sixtyFour(address: string): string {
  const [head = "", tail] = address.split("%")[0]?.split("::") ?? [];
  const front = head === "" ? [] : head.split(":");
  const back = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16)).join(":")}::/64`;
}

/**
 * The peer a connection comes from, for the caps one peer may hold. Beyond loopback, its address: an IPv4 address (also
 * mapped to IPv6), or an IPv6 address's /64, since one host usually holds a whole /64 and would otherwise be as many
 * peers as it cares to use. On loopback, every caller is this machine (127.0.0.1 or ::1, whichever process or user
 * calls), so an address would make one peer of all of them: there a peer is one connection, its address and port.
 */
export function peerOf(address: string, port: number): string {
  if (isLoopback(address)) return `${address} ${port}`;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped;
  return isIPv6(address) ? sixtyFour(address) : address;
}

const wildcards = new Set(["0.0.0.0", "::"]);

/** An address as a URL's host spells it: IPv6 in brackets. */
const hostOf = (address: string) => (isIPv6(address) ? `[${address}]` : address);

/** Where a server bound to `address` listens. */
export interface Reach {
  /** The origins it can be reached at, loopback first where it listens there (`http://127.0.0.1:4010`). */
  origins: string[];
  /** The host names (no port) a request's Host header may give: the addresses above, the loopback names, the machine's name. */
  names: ReadonlySet<string>;
  /** Whether it listens beyond loopback, where other machines can reach it. */
  beyondLoopback: boolean;
}

/**
 * The reach of a server bound to `address`: that address, or on a wildcard (`0.0.0.0`, `::`) every interface's address
 * of the families it accepts (link-local IPv6 addresses need a zone and are left out).
 */
export function reachOf(address: string, port: number): Reach {
  const wildcard = wildcards.has(address);
  const interfaces = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []);
  const addresses = wildcard
    ? interfaces.filter((entry) => (address === "::" || entry.family === "IPv4") && !entry.address.startsWith("fe80:")).map((entry) => entry.address)
    : [address];
  const ordered = [...addresses.filter(isLoopback), ...addresses.filter((entry) => !isLoopback(entry))];
  const beyondLoopback = ordered.some((entry) => !isLoopback(entry));
  const names = new Set(ordered.map(hostOf));
  if (ordered.some(isLoopback)) for (const name of ["127.0.0.1", "localhost", "[::1]"]) names.add(name);
  if (beyondLoopback) names.add(hostname().toLowerCase());
  return { origins: ordered.map((entry) => `http://${hostOf(entry)}:${port}`), names, beyondLoopback };
}
