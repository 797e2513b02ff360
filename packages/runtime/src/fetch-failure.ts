// Error codes that prove a fetch never sent its request: the name did not resolve, the connection was refused, or the
// pool it would have gone through was closed. Node's (undici's and libuv's) and Bun's codes.
const unsentCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "UND_ERR_CLOSED", "UND_ERR_DESTROYED", "ConnectionRefused"]);
// Deno says the same in its message only.
const unsentMessage = /tcp connect error: Connection refused|dns error|failed to lookup address/i;

/**
 * Whether a fetch's failure proves that nothing left this machine, so that the service cannot have acted on (or billed)
 * the request: read from the error's `code` and its `cause` chain. Any other failure, a browser's opaque `TypeError`
 * included, may have come after the request was sent.
 */
export function neverSent(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && unsentCodes.has(code)) return true;
    if (typeof message === "string" && unsentMessage.test(message)) return true;
    current = cause;
  }
  return false;
}

/** What a connection error says: whether the request may have reached the service. */
export function describeConnectionFailure(name: string, inFlight: boolean): string {
  return inFlight
    ? `${name}: the connection failed or the response was cut off`
    : `${name}: the request was never sent (the connection was refused or the host name did not resolve); nothing was billed, and it can be retried`;
}
