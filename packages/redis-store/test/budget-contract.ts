// What every credit budget store must do with account rates, run against each store (memory, Redis): the same calls,
// the same outcomes. A "service" here charges `rate` credits a call, whatever the price reserved.
import type { AccountRate, BudgetWait, CreditBudgetStore, CreditReservation } from "@content-scraper/runtime";
import { describe, expect, it } from "vitest";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let n = 0;

/** A call as the client makes it: reserve (waiting while another call finds the rate out), "send", settle what was charged. */
async function call(store: CreditBudgetStore, key: string, maxCredits: number, rate: AccountRate, charges: number, sentMs = 20): Promise<number> {
  for (;;) {
    const reply = (await store.reserve(key, 1, maxCredits, rate)) as CreditReservation | BudgetWait | undefined;
    if (reply === undefined) return 0;
    if ("waitMs" in reply) {
      await sleep(reply.waitMs);
      continue;
    }
    await sleep(sentMs);
    await store.settle(key, reply, charges, charges > 0 ? charges : undefined);
    return charges;
  }
}

export function budgetRateContract(name: string, makeStore: () => CreditBudgetStore): void {
  describe(`${name}: account rates`, () => {
    const key = () => `rates-${name}-${++n}`;

    it.each([3, 25])("never lets 50 parallel calls charged %i a call pass the cap by more than one call's difference", async (rate) => {
      const store = makeStore();
      const budget = key();
      const charged = await Promise.all(Array.from({ length: 50 }, () => call(store, budget, 30, { operation: "shortvideoProfile" }, rate)));
      const total = charged.reduce((sum, each) => sum + each, 0);
      expect(total).toBeLessThanOrEqual(30 + (rate - 1));
      // Refused only once the next call no longer fitted at the learned rate.
      expect(total).toBeGreaterThan(30 - rate);
      expect(await store.state(budget)).toEqual({ spent: total, reserved: 0 });
    });

    it("reserves the highest rate it has seen, per operation, and lets a known rate go out at once", async () => {
      const store = makeStore();
      const budget = key();
      await call(store, budget, 100, { operation: "shortvideoPosts" }, 7);
      expect(await store.reserve(budget, 1, 100, { operation: "shortvideoPosts" })).toMatchObject({ credits: 7, operation: "shortvideoPosts" });
      // Another operation's rate is its own; the caller who knows it is not held.
      const first = await store.reserve(budget, 2, 100, { operation: "shortvideoProfile", known: true });
      const second = await store.reserve(budget, 2, 100, { operation: "shortvideoProfile", known: true });
      expect([first, second]).toMatchObject([{ credits: 2 }, { credits: 2 }]);
      // A fixed price learns nothing and waits for nobody.
      expect(await store.reserve(budget, 25, 1000)).toMatchObject({ credits: 25 });
    });

    it("holds one call of an unknown rate at a time, and lets the next find it out when the first learned nothing", async () => {
      const store = makeStore();
      const budget = key();
      const operation = { operation: "videositePost" };
      const probe = (await store.reserve(budget, 1, 100, operation)) as CreditReservation;
      expect(probe).toMatchObject({ credits: 1 });
      expect(await store.reserve(budget, 1, 100, operation)).toMatchObject({ waitMs: expect.any(Number) });
      // A refunded answer shows no rate: the next call finds it out.
      await store.settle(budget, probe, 0);
      const next = (await store.reserve(budget, 1, 100, operation)) as CreditReservation;
      expect(next).toMatchObject({ credits: 1 });
      expect(await store.reserve(budget, 1, 100, operation)).toMatchObject({ waitMs: expect.any(Number) });
      await store.settle(budget, next, 4, 4);
      expect(await store.reserve(budget, 1, 100, operation)).toMatchObject({ credits: 4 });
    });

    it("counts a charge above the reservation at once, so that what follows is refused", async () => {
      const store = makeStore();
      const budget = key();
      const reservation = (await store.reserve(budget, 1, 10, { operation: "photosharePost", known: true })) as CreditReservation;
      await store.settle(budget, reservation, 9, 9);
      expect(await store.state(budget)).toEqual({ spent: 9, reserved: 0 });
      expect(await store.reserve(budget, 1, 10, { operation: "photosharePost" })).toBeUndefined();
    });
  });
}
