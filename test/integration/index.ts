// The tests module of the test-electron contract: VS Code (desktop via @vscode/test-electron,
// or code-server via test/harness/run-integration.mjs) loads it in the extension host and
// calls run(); resolve = pass, reject = fail. Runs every out/test/integration/**/*.test.js
// with mocha (TDD UI: suite/test), prints a spec report through console.log (which the
// harness reads back from the workbench) and one machine-readable closing line:
//   TANDEM-RESULT {"passed":n,"failed":m,"pending":k}
// Env (extension host): TANDEM_TEST_GREP filters tests by title; TANDEM_TEST_TIMEOUT (ms).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(p));
    else if (entry.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.TANDEM_TEST_TIMEOUT) || 20_000,
    grep: process.env.TANDEM_TEST_GREP || undefined,
  });
  for (const file of findTests(__dirname)) mocha.addFile(file);

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const stats = runner.stats ?? { passes: 0, failures, pending: 0 };
        console.log(
          `TANDEM-RESULT ${JSON.stringify({ passed: stats.passes, failed: stats.failures, pending: stats.pending })}`,
        );
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (err) {
      console.log(`TANDEM-RESULT ${JSON.stringify({ passed: 0, failed: 1, pending: 0 })}`);
      console.error(err);
      reject(err);
    }
  });
}
