// "Activation does not compile schemas" (issue 2), kept in `npm test`: the extension's
// activate() runs in plain Node against a stub vscode (bench/lib/vscodeStub.cjs, the same
// probe bench/activation.mjs uses) and must neither build an ajv instance, nor compile a
// schema, nor generate code with `new Function`. The built-in IDE tool group registers as
// trusted: its validators compile on first use, and still reject bad arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compileGroup } from '../../../src/tools/registry';

const REPO = join(__dirname, '../../../..');

test('activate() loads no ajv, compiles no schema and generates no code', { timeout: 20_000 }, () => {
  const ext = join(REPO, 'out/src/extension.js');
  assert.ok(existsSync(ext), 'out/src/extension.js (node esbuild.mjs)');
  const r = spawnSync(process.execPath, [join(REPO, 'bench/lib/vscodeStub.cjs'), ext, REPO], { encoding: 'utf8' });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('{'));
  assert.ok(line, `no result from vscodeStub.cjs: ${r.stderr}`);
  const res = JSON.parse(line) as { error?: string; ajvInstances: number; ajvCompiles: number; newFunction: number };
  assert.equal(res.error, undefined, 'activate() threw against the stub vscode');
  assert.equal(res.ajvInstances, 0, 'ajv instances created during activation');
  assert.equal(res.ajvCompiles, 0, 'ajv compile() calls during activation');
  assert.equal(res.newFunction, 0, 'new Function() calls during activation');
});

test('a trusted group compiles its schemas on first use and still validates', () => {
  const c = compileGroup(
    {
      name: 'Builtin',
      description: 'built in',
      tools: [
        {
          name: 'Open',
          description: 'opens',
          handler: () => 'ok',
          parametersSchema: {
            type: 'object',
            properties: { line: { type: 'integer' } },
            required: ['line'],
            additionalProperties: false,
          },
        },
      ],
    },
    { trusted: true },
  );
  const v = c.validators.get('Open')!;
  assert.equal(v({ line: 3 }), true);
  assert.equal(v({ line: 'x' }), false);
  assert.match(JSON.stringify(v.errors), /must be integer/);
  assert.equal(v({}), false);
  assert.match(JSON.stringify(v.errors), /required property 'line'/);
});
