// The body room counts bytes as they arrive: a connection's own first, then the shared room within its peer's share;
// bytes it cannot take are refused whole, and nothing ever waits.
import { expect, it } from "vitest";
import { BodyRoom, type Held, type Holder } from "../src/body-room.js";

const connection = (peer: string): Holder => ({ peer, own: 0 });
const nothing = (): Held => ({ own: 0, shared: 0 });

it("takes a connection's own bytes first, then the shared room, and gives back exactly what a body held", () => {
  const room = new BodyRoom({ own: 10, shared: 100, peer: 100 });
  const [first, second] = [connection("a 1"), connection("a 2")];
  const held = nothing();
  expect(room.take(first, held, 60)).toBeUndefined();
  expect([held, first.own]).toEqual([{ own: 10, shared: 50 }, 10]);
  // The next body on the same connection has no own bytes left; another connection has its own.
  const next = nothing();
  expect(room.take(first, next, 5)).toBeUndefined();
  expect(next).toEqual({ own: 0, shared: 5 });
  const other = nothing();
  expect(room.take(second, other, 55)).toBeUndefined();
  expect(other).toEqual({ own: 10, shared: 45 });
  // 100 shared bytes are held: one more is refused, and counted nowhere.
  const refused = nothing();
  expect(room.take(connection("a 3"), refused, 11)).toBe("room");
  expect(refused).toEqual({ own: 0, shared: 0 });
  room.give(first, held);
  expect([held, first.own]).toEqual([{ own: 0, shared: 0 }, 0]);
  // Giving twice gives nothing more.
  room.give(first, held);
  expect(room.take(connection("a 3"), nothing(), 60)).toBeUndefined();
  expect(room.take(connection("a 4"), nothing(), 11)).toBe("room");
});

it("holds one peer to its share of the shared room, leaving the rest to others", () => {
  const room = new BodyRoom({ own: 0, shared: 100, peer: 40 });
  const [one, two] = [connection("192.0.2.1"), connection("192.0.2.1")];
  const held = nothing();
  expect(room.take(one, held, 30)).toBeUndefined();
  expect(room.take(two, nothing(), 11)).toBe("peer");
  expect(room.take(two, nothing(), 10)).toBeUndefined();
  expect(room.take(connection("192.0.2.2"), nothing(), 40)).toBeUndefined();
  room.give(one, held);
  expect(room.take(two, nothing(), 30)).toBeUndefined();
});
