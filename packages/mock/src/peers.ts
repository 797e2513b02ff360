import type { Socket } from "node:net";
import { peerOf } from "./addresses.js";
import type { Holder } from "./body-room.js";

// The connections the gateway holds, by peer (`peerOf`: an address beyond loopback, a connection on it), so that one
// peer cannot take every connection the sandbox keeps and shut everyone else out.

export class Peers {
  readonly #connections = new Map<string, number>();
  readonly #holders = new WeakMap<Socket, Holder>();

  constructor(readonly maxPerPeer: number) {}

  /**
   * Counts a new connection for its peer until it closes, and answers it as the body room counts it; `undefined` when
   * its peer holds `maxPerPeer` connections already, or it closed before it could be counted.
   */
  admit(socket: Socket): Holder | undefined {
    const { remoteAddress, remotePort } = socket;
    if (remoteAddress === undefined || remotePort === undefined) return undefined;
    const peer = peerOf(remoteAddress, remotePort);
    const count = this.#connections.get(peer) ?? 0;
    if (count >= this.maxPerPeer) return undefined;
    this.#connections.set(peer, count + 1);
    socket.once("close", () => {
      const left = (this.#connections.get(peer) ?? 1) - 1;
      if (left > 0) this.#connections.set(peer, left);
      else this.#connections.delete(peer);
    });
    const holder: Holder = { peer, own: 0 };
    this.#holders.set(socket, holder);
    return holder;
  }

  /** The connection a request came on, as `admit` counted it. */
  holderOf(socket: Socket): Holder | undefined {
    return this.#holders.get(socket);
  }
}
