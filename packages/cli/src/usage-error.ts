/** Bad arguments or environment, found before anything is sent: printed without a stack, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
