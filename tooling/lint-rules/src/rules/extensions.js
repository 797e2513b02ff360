import { checkExtensions } from '../extensions.js';

/**
 * The document, security scheme and schema extensions of spec/extensions.md have their documented shape wherever
 * they appear, on any surface. None is required: whether a surface documents a default rate, a key prefix or a
 * backoff is the reference's to say, not lint's.
 * @type {import('../types.js').Rule}
 */
export default function extensions() {
  return {
    Root: {
      enter(root, ctx) {
        if (root) checkExtensions(ctx, root, { 'x-rate-limit': false, 'x-request-body-limit': false, 'x-timeout-seconds': false });
      },
    },
    SecurityScheme: {
      enter(scheme, ctx) {
        if (scheme) checkExtensions(ctx, scheme, { 'x-key-prefix': false, 'x-rejected-key-prefixes': false });
      },
    },
    Schema: {
      enter(schema, ctx) {
        if (schema) checkExtensions(ctx, schema, { 'x-error-codes': false, 'x-retry-backoff': false });
      },
    },
  };
}
