// A peer is an address beyond loopback (an IPv6 address's /64), and one connection on it, where every caller is this
// machine: the per-peer caps count by it.
import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { expect, it } from "vitest";
import { peerOf } from "../src/addresses.js";
import { Peers } from "../src/peers.js";

it.each([
  ["127.0.0.1", 50000, "127.0.0.1 50000"],
  ["127.0.0.1", 50001, "127.0.0.1 50001"],
  ["127.8.9.10", 50000, "127.8.9.10 50000"],
  ["::1", 50000, "::1 50000"],
  ["::ffff:127.0.0.1", 50000, "::ffff:127.0.0.1 50000"],
  ["192.0.2.7", 50000, "192.0.2.7"],
  ["192.0.2.7", 50001, "192.0.2.7"],
  ["::ffff:192.0.2.7", 50000, "192.0.2.7"],
  ["2001:db8:1:2:3:4:5:6", 50000, "2001:db8:1:2::/64"],
  ["2001:db8:1:2::9", 50001, "2001:db8:1:2::/64"],
  ["2001:0db8:0001:0002:ffff::", 50001, "2001:db8:1:2::/64"],
  ["2001:db8::1", 50000, "2001:db8:0:0::/64"],
  ["fe80::1%eth0", 50000, "fe80:0:0:0::/64"],
])("counts %s port %i as the peer %s", (address, port, peer) => {
  expect(peerOf(address, port)).toBe(peer);
});

const socket = (remoteAddress: string | undefined, remotePort = 40000) => Object.assign(new EventEmitter(), { remoteAddress, remotePort }) as unknown as Socket;

it("admits a peer's connections up to its cap, and one more once one of them closes", () => {
  const peers = new Peers(2);
  const [first, second] = [socket("192.0.2.1", 1), socket("192.0.2.1", 2)];
  expect(peers.admit(first)).toEqual({ peer: "192.0.2.1", own: 0 });
  expect(peers.admit(second)).toBeDefined();
  expect(peers.admit(socket("192.0.2.1", 3))).toBeUndefined();
  expect(peers.admit(socket("192.0.2.2", 3))).toBeDefined();
  first.emit("close");
  const third = socket("192.0.2.1", 4);
  const holder = peers.admit(third);
  expect(holder).toBeDefined();
  // The gateway finds a request's connection as it was admitted.
  expect(peers.holderOf(third)).toBe(holder);
});

it("never runs out of room for connections on loopback, each its own peer", () => {
  const peers = new Peers(1);
  for (let port = 1; port <= 10; port++) expect(peers.admit(socket("127.0.0.1", port))).toBeDefined();
});

it("admits no socket that closed before it could be counted", () => {
  expect(new Peers(1).admit(socket(undefined))).toBeUndefined();
});
