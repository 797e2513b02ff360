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
      const { credits, requestsPerMinute, burstSeconds } = this.#options;
      account = { bucket: new TokenBucket(requestsPerMinute, burstSeconds), balance: key === sandboxKeys.empty ? 0 : credits };
      if (this.#accounts.size >= maxAccounts) this.#accounts.delete(this.#accounts.keys().next().value as string);
      this.#accounts.set(key, account);
    }
    return account;
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
