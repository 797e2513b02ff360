import { expect, it } from "vitest";
import { Ordered } from "./ordered.js";

it("finds the key put longest ago, as keys are put again, deleted, and the order is walked past its end", () => {
  const order = new Ordered<number>();
  expect(order.oldest()).toBeUndefined();
  for (const [index, key] of ["a", "b", "c"].entries()) order.put(key, index);
  expect(order.oldest()).toBe("a");
  order.put("a", 3);
  expect([order.oldest(), order.get("a")]).toEqual(["b", 3]);
  order.delete("b");
  expect(order.oldest()).toBe("c");
  order.delete("c");
  order.delete("a");
  expect(order.oldest()).toBeUndefined();
  order.put("d", 4);
  order.put("e", 5);
  expect(order.oldest()).toBe("d");
  order.clear();
  order.put("f", 6);
  expect([order.oldest(), order.size, order.entries()]).toEqual(["f", 1, [["f", 6]]]);
});

it("agrees with a plain list under many puts, deletes and forgettings of the oldest", () => {
  const order = new Ordered<number>();
  let model: string[] = [];
  let seed = 7;
  const next = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % below;
  };
  for (let step = 0; step < 20_000; step++) {
    const key = String(next(300));
    const operation = next(3);
    if (operation === 0) {
      order.put(key, step);
      model = [...model.filter((entry) => entry !== key), key];
    } else if (operation === 1) {
      order.delete(key);
      model = model.filter((entry) => entry !== key);
    } else {
      expect(order.oldest()).toBe(model[0]);
      if (model[0] !== undefined) order.delete(model[0]);
      model = model.slice(1);
    }
  }
  expect(order.entries().map(([key]) => key)).toEqual(model);
});
