// Room for request bodies across the requests being answered, so that many large bodies sent at once cannot hold more
// memory than `bodyBytesAtOnce`: a body waits its turn (first come, first served) before it is read, while TCP holds
// the rest of it back, and gives its room back once answered.

export class BodyRoom {
  #free: number;
  readonly #waiting: Array<{ bytes: number; enter: () => void }> = [];

  constructor(bytes: number) {
    this.#free = bytes;
  }

  /** Resolves once `bytes` are free, which the request then holds; the function it resolves with gives them back. */
  async take(bytes: number): Promise<() => void> {
    if (this.#waiting.length > 0 || bytes > this.#free) await new Promise<void>((enter) => this.#waiting.push({ bytes, enter }));
    else this.#free -= bytes;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#free += bytes;
      this.#admit();
    };
  }

  #admit(): void {
    for (let next = this.#waiting[0]; next && next.bytes <= this.#free; next = this.#waiting[0]) {
      this.#waiting.shift();
      this.#free -= next.bytes;
      next.enter();
    }
  }
}
