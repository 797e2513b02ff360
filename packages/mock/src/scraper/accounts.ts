import { BoundedMap } from "../bounded.js";
import type { SandboxClock } from "../control/clock.js";
import { stateLimits } from "../limits.js";
import { Ordered } from "../ordered.js";
import { sandboxKeys } from "./keys.js";
import { TokenBucket } from "./token-bucket.js";

/** A sandbox account: one per key, created on first use. */
export interface Account {
  readonly key: string;
  readonly bucket: TokenBucket;
  /** The balance it was opened with. */
  readonly starting: number;
  balance: number;
  /** Credits reserved by requests not yet answered. */
  held: number;
}

export interface AccountOptions {
  credits: number;
  requestsPerMinute: number;
  burstSeconds: number;
  clock: SandboxClock;
}

/** Why a new key gets no account: the sandbox's own limit, said as such. */
export const accountsFull = `The sandbox opens no account for a new key: its accounts fill the ${stateLimits.accounts / 1024 / 1024} MB it keeps for them, each with credits spent or reserved (a sandbox limit, not the service's). Reset the sandbox, or a key, to make room.`;

/**
 * The accounts, bounded (`stateLimits.accounts`) without ever losing money: when full, the sandbox forgets an account
 * that is as a new one would be (its starting balance, nothing reserved; its bucket starts full again), the oldest
 * first, and opens no account for a new key when every account it holds has credits spent or reserved.
 */
export class Accounts {
  readonly #options: AccountOptions;
  readonly #accounts = new BoundedMap<Account>(stateLimits.accounts);
  /** Keys of the accounts that are as new ones would be, least recently so first. */
  readonly #unmoved = new Ordered<true>();

  constructor(options: AccountOptions) {
    this.#options = options;
  }

  /** The key's account, opened on first use; `undefined` when the sandbox keeps no more (`accountsFull`). */
  get(key: string): Account | undefined {
    const known = this.#accounts.get(key);
    if (known) return known;
    const { credits, requestsPerMinute, burstSeconds, clock } = this.#options;
    const starting = key === sandboxKeys.empty ? 0 : credits;
    const account: Account = { key, bucket: new TokenBucket(requestsPerMinute, burstSeconds, () => clock.now()), starting, balance: starting, held: 0 };
    if (!this.#accounts.set(key, account, () => this.#forgettable())) return undefined;
    this.#unmoved.put(key, true);
    return account;
  }

  #forgettable(): string | undefined {
    const key = this.#unmoved.oldest();
    if (key !== undefined) this.#unmoved.delete(key);
    return key;
  }

  /** Notes whether an account is as a new one would be, after its balance moved. */
  #moved(account: Account): void {
    if (account.balance === account.starting && account.held === 0) this.#unmoved.put(account.key, true);
    else this.#unmoved.delete(account.key);
  }

  /** Reserves a request's price before work starts, as the service does; false when the balance cannot cover it. */
  reserve(account: Account, credits: number): boolean {
    if (account.balance < credits) return false;
    account.balance -= credits;
    account.held += credits;
    this.#moved(account);
    return true;
  }

  /** Settles a reservation: keeps what the answer costs, gives back the rest. */
  settle(account: Account, reserved: number, charged: number): void {
    account.balance += reserved - charged;
    account.held -= reserved;
    this.#moved(account);
  }

  /** Sets a key's balance, opening its account if needed; what is wrong, if it cannot. */
  setBalance(key: string, credits: number): string | undefined {
    const account = this.get(key);
    if (!account) return accountsFull;
    account.balance = credits;
    this.#moved(account);
    return undefined;
  }

  /** Forgets one key's account (its balance and bucket start over), or every account. */
  reset(key?: string): void {
    if (key === undefined) {
      this.#accounts.clear();
      this.#unmoved.clear();
    } else {
      this.#accounts.delete(key);
      this.#unmoved.delete(key);
    }
  }
}
