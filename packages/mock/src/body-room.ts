// Room for the request bodies the sandbox holds, counted byte by byte as they arrive rather than by the length a request
// announces, so that what bodies hold has a bound in bytes whatever requests claim (README: "Memory"). Each connection
// holds up to `own` bytes of its bodies on its own: Node reads a connection's bytes up to 64 KB at a time, so a
// connection holds some of its body whatever the sandbox does, and a small body (almost every request's) never depends
// on anyone else's. Beyond that, bodies share `shared` bytes, of which one peer holds at most `peer`. Nothing waits for
// room: bytes that find none are refused at once, so no request is ever held up behind another, however slowly that one
// sends.

export interface RoomLimits {
  /** Body bytes each connection holds on its own. */
  own: number;
  /** Body bytes held beyond the connections' own, across all. */
  shared: number;
  /** Of `shared`, the most one peer holds. */
  peer: number;
}

/** One connection, as the room counts it: the peer it comes from, and the body bytes it holds of its own. */
export interface Holder {
  readonly peer: string;
  own: number;
}

/** What one body holds: of its connection's own bytes, and of the shared room. */
export interface Held {
  own: number;
  shared: number;
}

/** Why bytes were refused: the shared room is full, or the peer's share of it is. */
export type Refusal = "room" | "peer";

export class BodyRoom {
  #shared = 0;
  readonly #peers = new Map<string, number>();

  constructor(readonly limits: RoomLimits) {}

  /**
   * Counts `bytes` more of a body that `holder`'s connection is reading into `held`: from the connection's own bytes
   * first, the rest from the shared room. Answers why, when the room or the peer's share cannot take them, and then
   * counts none of them.
   */
  take(holder: Holder, held: Held, bytes: number): Refusal | undefined {
    const own = Math.min(bytes, this.limits.own - holder.own);
    const shared = bytes - own;
    if (shared > 0) {
      const peer = this.#peers.get(holder.peer) ?? 0;
      if (this.#shared + shared > this.limits.shared) return "room";
      if (peer + shared > this.limits.peer) return "peer";
      this.#shared += shared;
      this.#peers.set(holder.peer, peer + shared);
    }
    holder.own += own;
    held.own += own;
    held.shared += shared;
    return undefined;
  }

  /** Gives back all that `held` holds, which then holds nothing. */
  give(holder: Holder, held: Held): void {
    holder.own -= held.own;
    if (held.shared > 0) {
      this.#shared -= held.shared;
      const peer = (this.#peers.get(holder.peer) ?? 0) - held.shared;
      if (peer > 0) this.#peers.set(holder.peer, peer);
      else this.#peers.delete(holder.peer);
    }
    held.own = 0;
    held.shared = 0;
  }
}
