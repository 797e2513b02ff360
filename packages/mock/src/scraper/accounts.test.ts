import { expect, it } from "vitest";
import { entryBytes } from "../bounded.js";
import { SandboxClock } from "../control/clock.js";
import { stateLimits } from "../limits.js";
import { Accounts } from "./accounts.js";

const accounts = () => new Accounts({ credits: 100, requestsPerMinute: 120, burstSeconds: 60, clock: new SandboxClock() });
// More keys than the accounts' budget can hold, each counted at least `entryBytes`.
const overBudget = Math.ceil(stateLimits.accounts / entryBytes) + 1;

it("never forgets an account whose balance moved: once full of them, it opens none for a new key", () => {
  const store = accounts();
  let opened = 0;
  for (; opened < overBudget; opened++) {
    const account = store.get(`scrape_live_spender_${opened}`);
    if (!account) break;
    store.reserve(account, 1);
    store.settle(account, 1, 1);
  }
  expect(opened).toBeGreaterThan(50_000);
  expect(opened).toBeLessThan(overBudget);
  expect(store.get("scrape_live_newcomer")).toBeUndefined();
  expect(store.setBalance("scrape_live_newcomer", 5)).toMatch(/a sandbox limit, not the service's/);
  // Every spender keeps its balance.
  for (const index of [0, Math.floor(opened / 2), opened - 1]) expect(store.get(`scrape_live_spender_${index}`)?.balance).toBe(99);
  // Resetting one key makes room for one.
  store.reset("scrape_live_spender_0");
  expect(store.get("scrape_live_newcomer")?.balance).toBe(100);
});

it("makes room by forgetting accounts that are as new ones (starting balance, nothing reserved), oldest first", () => {
  const store = accounts();
  const spender = store.get("scrape_live_spender") as NonNullable<ReturnType<typeof store.get>>;
  store.reserve(spender, 3);
  store.settle(spender, 3, 3);
  // A reservation in flight moves the balance too: that account is kept until it settles.
  const pending = store.get("scrape_live_pending") as NonNullable<ReturnType<typeof store.get>>;
  store.reserve(pending, 1);
  let opened = 0;
  for (let index = 0; index < overBudget; index++) if (store.get(`scrape_live_idle_${index}`)) opened++;
  expect(opened).toBe(overBudget);
  expect(store.get("scrape_live_spender")?.balance).toBe(97);
  expect(store.get("scrape_live_pending")).toBe(pending);
  store.settle(pending, 1, 1);
  expect(pending.balance).toBe(99);
});
