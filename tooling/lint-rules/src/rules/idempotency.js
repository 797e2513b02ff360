import { checkExtensions } from '../extensions.js';

/**
 * Idempotent writes say how they take their key (`x-idempotency`), and a surface that has any says how long the
 * service keeps a key (`x-idempotency-retention-seconds` at its root): the sandbox expires keys on it, so a description
 * with idempotent writes and no retention would leave the code guessing.
 * @type {import('../types.js').Rule}
 */
export default function idempotency() {
  let writes = 0;
  return {
    Root: {
      leave(root, ctx) {
        checkExtensions(ctx, root ?? {}, { 'x-idempotency-retention-seconds': writes > 0 }, { owner: 'A description with x-idempotency operations' });
      },
    },
    Operation: {
      enter(operation, ctx) {
        if (operation?.['x-idempotency'] === undefined) return;
        writes++;
        checkExtensions(ctx, operation, { 'x-idempotency': true }, { owner: `Operation \`${operation.operationId}\`` });
      },
    },
  };
}
