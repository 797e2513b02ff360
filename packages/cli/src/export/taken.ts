/**
 * This processing no longer holds its creator: a fleet's claim found another worker on it, or its file was cut by that
 * worker. It must not write the creator any more.
 */
export class CreatorTakenError extends Error {
  override name = "CreatorTakenError";
}
