import { expect, it } from "vitest";
import { BodyRoom } from "./body-room.js";

it("lets bodies in while they fit, then first come first served as room comes back", async () => {
  const room = new BodyRoom(100);
  const entered: string[] = [];
  const first = await room.take(60);
  const enter = (name: string, bytes: number) =>
    room.take(bytes).then((release) => {
      entered.push(name);
      return release;
    });
  const second = enter("second", 60);
  const third = enter("third", 10);
  await new Promise((resolve) => setTimeout(resolve, 10));
  // The small one waits behind the large one: no body waits forever behind smaller ones.
  expect(entered).toEqual([]);
  first();
  first();
  (await second)();
  (await third)();
  expect(entered).toEqual(["second", "third"]);
  const whole = await room.take(100);
  whole();
});
