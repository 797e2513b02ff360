import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

interface Problem {
  ruleId: string;
  message: string;
  location: { source: { ref: string }; pointer: string }[];
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

// Each house rule, its failing fixture, and how many problems it must report there.
const FAILING: [rule: string, fixture: string, problems: number][] = [
  ['house/scraper-operation-id', 'scraper-operation-id.yaml', 1],
  ['rule/operation-id-verb-noun', 'operation-id-verb-noun.yaml', 1],
  ['rule/no-platform-parameter', 'no-platform-parameter.yaml', 1],
  ['rule/scraper-path', 'scraper-path.yaml', 1],
  ['house/scraper-responses', 'scraper-responses.yaml', 1],
  ['house/scraper-headers', 'scraper-headers.yaml', 4],
  ['house/media-type-examples', 'media-type-examples.yaml', 2],
  ['house/scraper-extensions', 'scraper-extensions.yaml', 8],
  ['house/extensions', 'extensions.yaml', 7],
  ['house/idempotency', 'idempotency.yaml', 2],
  ['house/unknown-fields-closed', 'unknown-fields-closed.yaml', 1],
  ['house/not-shown-described', 'not-shown-described.yaml', 2],
  ['rule/operation-single-tag', 'operation-single-tag.yaml', 2],
  ['operation-tag-defined', 'operation-tag-defined.yaml', 2],
  ['house/workflow-operations', 'workflow-operations.yaml', 4],
];

// The root configs (the descriptions' and the Arazzo workflows'), whose rule settings the test lints with instead of a copy.
const root = parse(readFileSync(path.join(repoRoot, 'redocly.yaml'), 'utf8'));
const workflowRules: Record<string, unknown> = parse(readFileSync(path.join(repoRoot, 'redocly-workflows.yaml'), 'utf8')).rules;
const scraperRules: Record<string, unknown> = root.apis.scraper.rules;

/**
 * The root config with one API per fixture: those of scraper rules (and valid.yaml) get the scraper's
 * rules, the others only the rules every surface gets.
 */
function fixturesConfig() {
  const apis = [...FAILING, [undefined, 'valid.yaml'] as const].map(([rule, fixture]) => {
    const scraper = rule === undefined || rule in scraperRules;
    return [path.basename(fixture, '.yaml'), { root: path.join(fixtures, fixture), ...(scraper && { rules: scraperRules }) }];
  });
  const plugins = root.plugins.map((plugin: string) => path.resolve(repoRoot, plugin));
  return { ...root, plugins, rules: { ...root.rules, ...workflowRules }, apis: Object.fromEntries(apis) };
}

/** Lints every fixture in one CLI run and groups the problems by the file they are in. */
function lintFixtures() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lint-rules-'));
  const config = path.join(dir, 'redocly.yaml');
  writeFileSync(config, stringify(fixturesConfig()));
  const run = spawnSync(process.execPath, [cli, 'lint', '--config', config, '--format', 'json', '--max-problems', '1000'], {
    cwd: fixtures,
    encoding: 'utf8',
  });
  rmSync(dir, { recursive: true });
  // Exit code 1 means problems were found, which the failing fixtures must do.
  if (run.status !== 1) throw new Error(`redocly lint exited with ${run.status}:\n${run.stderr}`);
  // The CLI prints one JSON report per API, back to back.
  const reports: { problems: Problem[] }[] = JSON.parse(`[${run.stdout.replace(/\n\}\{/g, '\n},{')}]`);
  const byFile = new Map<string, Problem[]>();
  for (const problem of reports.flatMap((report) => report.problems)) {
    const file = path.relative(fixtures, path.resolve(fixtures, problem.location[0]?.source.ref ?? ''));
    byFile.set(file, [...(byFile.get(file) ?? []), problem]);
  }
  return byFile;
}

describe('house lint rules', () => {
  let problems: Map<string, Problem[]>;
  const summary = (file: string) =>
    (problems.get(file) ?? []).map(({ ruleId, message, location }) => `${ruleId} at ${location[0]?.pointer}: ${message}`);

  beforeAll(() => {
    problems = lintFixtures();
  });

  it('has a failing fixture for every house rule in redocly.yaml', () => {
    // Rules switched off are built-in ones we opt out of, not house rules.
    const configured = Object.entries({ ...root.rules, ...scraperRules, ...workflowRules })
      .filter(([, setting]) => setting !== 'off')
      .map(([rule]) => rule);
    expect(FAILING.map(([rule]) => rule).sort()).toEqual(configured.sort());
  });

  it.each(FAILING)('%s reports %s, and nothing else does', (rule, fixture, count) => {
    expect((problems.get(fixture) ?? []).map((problem) => problem.ruleId), summary(fixture).join('\n')).toEqual(
      Array(count).fill(rule),
    );
  });

  it.each(['valid.yaml', 'shared.yaml'])('reports nothing in %s', (file) => {
    expect(summary(file)).toEqual([]);
  });

  it('reports only in fixture files', () => {
    const known = new Set([...FAILING.map(([, fixture]) => fixture), 'valid.yaml', 'shared.yaml']);
    expect([...problems.keys()].filter((file) => !known.has(file))).toEqual([]);
  });
});
