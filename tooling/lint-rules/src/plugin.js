import extensions from './rules/extensions.js';
import idempotency from './rules/idempotency.js';
import mediaTypeExamples from './rules/media-type-examples.js';
import notShownDescribed from './rules/not-shown-described.js';
import scraperExtensions from './rules/scraper-extensions.js';
import scraperHeaders from './rules/scraper-headers.js';
import scraperOperationId from './rules/scraper-operation-id.js';
import scraperResponses from './rules/scraper-responses.js';
import unknownFieldsClosed from './rules/unknown-fields-closed.js';
import workflowOperations from './rules/workflow-operations.js';

/**
 * The house rules that configurable `rule/…` assertions cannot express, loaded by `plugins:` in redocly.yaml
 * and enabled there as `house/<rule>`. The `scraper-…` and `unknown-fields-closed` rules assume a scraper
 * description, so they are enabled under `apis.scraper.rules` only. `workflow-operations` checks the Arazzo
 * workflows under spec/workflows.
 */
export default function plugin() {
  return {
    id: 'house',
    rules: {
      oas3: {
        extensions,
        idempotency,
        'media-type-examples': mediaTypeExamples,
        'not-shown-described': notShownDescribed,
        'scraper-extensions': scraperExtensions,
        'scraper-headers': scraperHeaders,
        'scraper-operation-id': scraperOperationId,
        'scraper-responses': scraperResponses,
        'unknown-fields-closed': unknownFieldsClosed,
      },
      arazzo1: {
        'workflow-operations': workflowOperations,
      },
    },
  };
}
