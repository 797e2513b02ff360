import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `#/paths/~1a~1b/get` → `['paths', '/a/b', 'get']`. */
const pointerParts = (/** @type {string} */ pointer) =>
  pointer
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));

/**
 * The operations of each OpenAPI source description, by name: their operationIds and the `[path, method]` pairs.
 * @param {import('../types.js').Node[]} sources
 * @param {string} file the Arazzo document, which `url`s are relative to
 */
function loadSources(sources, file) {
  /** @type {Map<string, { operationIds: Set<string>, paths: import('../types.js').Node } | { error: string }>} */
  const loaded = new Map();
  for (const source of sources) {
    if (source?.type !== 'openapi' || typeof source.name !== 'string' || typeof source.url !== 'string') continue;
    try {
      const document = parse(readFileSync(resolve(dirname(file), source.url), 'utf8'));
      const paths = document?.paths ?? {};
      const operationIds = new Set(
        Object.values(paths).flatMap((item) =>
          Object.entries(item ?? {}).flatMap(([method, operation]) => (METHODS.has(method) && operation?.operationId ? [operation.operationId] : [])),
        ),
      );
      loaded.set(source.name, { operationIds, paths });
    } catch (error) {
      loaded.set(source.name, { error: error instanceof Error ? error.message : String(error) });
    }
  }
  return loaded;
}

/**
 * Every step of a workflow runs something that exists: an operation of its OpenAPI source description (`operationId`,
 * bare when there is one source description, else `$sourceDescriptions.<name>.<operationId>`; or `operationPath`,
 * `{$sourceDescriptions.<name>.url}#/paths/…/<method>`), a workflow of the same document, or an `x-operation` whose URL
 * reaches one of the paths the rule allows (`allowedXOperationPaths`: the sandbox's control API, which no description
 * has). A renamed operationId or path then fails the lint, not a partner's certification run.
 * @type {import('../types.js').Rule}
 */
export default function workflowOperations(options) {
  const allowedXOperationPaths = /** @type {string[]} */ (options.allowedXOperationPaths ?? []);
  return {
    Root: {
      enter(root, ctx) {
        const file = ctx.location.source.absoluteRef;
        const sourceList = Array.isArray(root?.sourceDescriptions) ? root.sourceDescriptions : [];
        const sources = loadSources(sourceList, file);
        const workflowIds = new Set((root?.workflows ?? []).map((/** @type {any} */ workflow) => workflow?.workflowId));
        const openapiNames = [...sources.keys()];

        /** @param {string | undefined} name */
        const source = (name) => (name === undefined ? (openapiNames.length === 1 ? sources.get(openapiNames[0] ?? '') : undefined) : sources.get(name));

        for (const [w, workflow] of (root?.workflows ?? []).entries()) {
          for (const [s, step] of (workflow?.steps ?? []).entries()) {
            const at = ctx.location.child(['workflows', w, 'steps', s]);
            const where = `Step \`${step?.stepId}\` of \`${workflow?.workflowId}\``;
            const report = (/** @type {string} */ message, /** @type {string} */ key) => ctx.report({ message: `${where} ${message}`, location: at.child(key) });
            if (typeof step?.operationId === 'string') {
              const match = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.operationId);
              const [name, operationId] = match ? [match[1], match[2]] : [undefined, step.operationId];
              const described = source(name);
              if (!described) {
                const hint = name === undefined ? ': with several source descriptions, write $sourceDescriptions.<name>.<operationId>' : '';
                report(`names no OpenAPI source description this document has (${step.operationId})${hint}.`, 'operationId');
              }
              else if ('error' in described) report(`cannot read its source description: ${described.error}`, 'operationId');
              else if (!described.operationIds.has(operationId ?? '')) report(`calls \`${operationId}\`, which its description does not have.`, 'operationId');
            } else if (typeof step?.operationPath === 'string') {
              const match = /^\{\$sourceDescriptions\.([^.]+)\.url\}(#.*)$/.exec(step.operationPath);
              const described = match ? source(match[1]) : undefined;
              const [paths, path, method] = match ? pointerParts(match[2] ?? '') : [];
              if (!described || 'error' in described || paths !== 'paths' || !METHODS.has(method ?? '') || !described.paths?.[path ?? '']?.[method ?? '']) {
                report(`has an operationPath that reaches no operation of its description (${step.operationPath}).`, 'operationPath');
              }
            } else if (typeof step?.workflowId === 'string') {
              if (!workflowIds.has(step.workflowId)) report(`calls the workflow \`${step.workflowId}\`, which this document does not have.`, 'workflowId');
            } else if (step?.['x-operation']) {
              const url = String(step['x-operation'].url ?? '');
              if (!allowedXOperationPaths.some((path) => url.includes(path))) {
                report(`calls ${url} with x-operation, outside every description and the allowed paths (${allowedXOperationPaths.join(', ') || 'none'}).`, 'x-operation');
              }
            } else {
              report('names no operation, operationPath, workflow or x-operation.', 'stepId');
            }
          }
        }
      },
    },
  };
}
