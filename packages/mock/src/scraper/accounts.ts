import type { SandboxClock } from "../control/clock.js";
import { remember } from "../surface-kit.js";
import { sandboxKeys } from "./keys.js";
import { TokenBucket } from "./token-bucket.js";

/** A sandbox account: one per key, created on first use. */
export interface Account {
  readonly bucket: TokenBucket;
  balance: number;
}

export interface AccountOptions {
  credits: number;
  requestsPerMinute: number;
  burstSeconds: number;
  clock: SandboxClock;
}

// Accounts are created by whoever sends a new key; past this many, the oldest is forgotten (its balance starts over).
const maxAccounts = 100_000;

export class Accounts {
  readonly #options: AccountOptions;
  readonly #accounts = new Map<string, Account>();

  constructor(options: AccountOptions) {
    this.#options = options;
  }

  get(key: string): Account {
    let account = this.#accounts.get(key);
    if (!account) {
      const { credits, requestsPerMinute, burstSeconds, clock } = this.#options;
      account = { bucket: new TokenBucket(requestsPerMinute, burstSeconds, () => clock.now()), balance: key === sandboxKeys.empty ? 0 : credits };
      remember(this.#accounts, key, account, maxAccounts);
    }
    return account;
  }

  /** Forgets one key's account (its balance and bucket start over), or every account. */
  reset(key?: string): void {
    if (key === undefined) this.#accounts.clear();
    else this.#accounts.delete(key);
  }
}

/** Reserves a request's price before work starts, as the service does; false when the balance cannot cover it. */
export function reserve(account: Account, credits: number): boolean {
  if (account.balance < credits) return false;
  account.balance -= credits;
  return true;
}

/** Settles a reservation: keeps what the answer costs, gives back the rest. */
export function settle(account: Account, reserved: number, charged: number): void {
  account.balance += reserved - charged;
}
