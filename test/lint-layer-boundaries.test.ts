import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rules that keep rewards/ off the lab and analysis/ below both, checked on code they must refuse and allow. */
describe('rewards/ and analysis/ boundary lint rules', () => {
  const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
  const lint = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: file });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it.each([
    ["import { runAudit } from '../lab/audit.js';", 'src/rewards/probe.ts', /rewards\/ never imports lab\//],
    ["import { taskUnitOf } from '../../lab/metrics/index.js';", 'src/rewards/signals/probe.ts', /rewards\/ never imports lab\//],
    ["import { runAudit } from '../lab/audit.js';", 'src/rewards/probe.test.ts', /rewards\/ never imports lab\//],
    ["import { program } from '../cli/main.js';", 'src/rewards/probe.ts', /imports no app/],
    ["import { runAudit } from '../lab/audit.js';", 'src/analysis/probe.ts', /imports only core\/ and domains\//],
    ["import { r2 } from '../rewards/index.js';", 'src/analysis/probe.ts', /imports only core\/ and domains\//],
    ["import { runTurn } from '../runtime/agent-loop.js';", 'src/analysis/probe.ts', /imports only core\/ and domains\//],
    ["import { toRecord } from '../lab/records.js';", 'src/runtime/probe.ts', /runtime\/ imports no lab/],
    ["import { serve } from '../../cli/serve.js';", 'src/runtime/service/probe.ts', /runtime\/ imports no lab/],
    ["import { runTurn } from '../runtime/agent-loop.js';", 'src/store/probe.ts', /adapters import only core/],
    ["import { toRecord } from '../lab/records.js';", 'src/domains/probe.ts', /adapters import only core/],
    ["import { buildHttpApp } from '../server/http-app.js';", 'src/llm/probe.ts', /adapters import only core/],
    ["import { program } from '../../cli/main.js';", 'src/lab/eval/probe.ts', /lab\/ imports no app/],
  ])('refuses %s in %s', async (line, file, why) => {
    const messages = await lint(`${line}\nexport const x = 1;\n`, file);
    expect(messages.join('\n')).toMatch(why);
  });

  it('allows the analysis, domains and siblings in rewards/, core/ and domains/ in analysis/, and the lab reading both', async () => {
    expect(
      await lint(
        "import { analyseEpisode } from '../analysis/episode-analysis.js';\nimport { TRANSFER_TOOLS } from '../domains/evaluator.js';\nimport { tone } from './signals.js';\nexport const x = [analyseEpisode, TRANSFER_TOOLS, tone];\n",
        'src/rewards/probe.ts',
      ),
    ).toEqual([]);
    expect(
      await lint(
        "import { hasExplicitConfirmation } from '../core/confirmation.js';\nimport { TRANSFER_TOOLS } from '../domains/evaluator.js';\nexport const x = [hasExplicitConfirmation, TRANSFER_TOOLS];\n",
        'src/analysis/probe.ts',
      ),
    ).toEqual([]);
    expect(
      await lint(
        "import { r2 } from '../rewards/index.js';\nimport { analyseEpisode } from '../analysis/episode-analysis.js';\nexport const x = [r2, analyseEpisode];\n",
        'src/lab/probe.ts',
      ),
    ).toEqual([]);
  });
});
