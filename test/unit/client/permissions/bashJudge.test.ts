// Bash judges the command model: lines mixing every quoting form, substitutions, operators,
// redirections, here-documents, globs, braces, assignments and dangerous options are generated;
// every line a remembered prefix or a user rule would allow is run by bash with stub programs,
// and bash must have run exactly what was approved — and nothing else, and written no file.
// Every line the model says it understands must run exactly the commands the model read.
// FULL=1 runs 10× as many lines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  commandMatchesPrefix,
  commandScope,
  scopeMatches,
  type CommandScope,
} from '../../../../src/client/permissions/commandScope';
import { loadBashParser } from '../../../../src/client/permissions/shell/bashParser';
import { analyzeCommandLine } from '../../../../src/client/permissions/shell/commandLine';
import { dangerousOption } from '../../../../src/client/permissions/shell/programs';
import { BashJudge } from '../../../support/bashJudge';

const RUNS = process.env.FULL ? 30_000 : 3_000;
const PROGRAMS = ['git', 'npm', 'make', 'go', 'touch', 'rm', 'curl', 'sh', 'cat', 'head'];
let judge: BashJudge;

before(async () => {
  assert.ok(await loadBashParser(), 'the bash grammar loads');
  judge = new BashJudge(PROGRAMS);
});
after(() => judge.dispose());

/** Text with every character that matters to bash. */
const tricky = fc.string({
  unit: fc.constantFrom(...`ab -=./:,_'"\\$\`();&|<>*?[]{}~#!\n\t %@^+\r\v\f\u00a0é`.split('')),
  maxLength: 8,
});
const plain = fc.constantFrom('status', 'test', '-s', '--oneline', 'hello', 'src/a.ts', 'build', '--', 'x=1', '.');
const quoted = fc.oneof(
  tricky.map((s) => `'${s.replace(/'/g, '')}'`),
  tricky.map((s) => `"${s}"`),
  tricky.map((s) => `"${s.replace(/["\\$`]/g, '\\$&')}"`),
  tricky.map((s) => `$'${s}'`),
  tricky.map((s) => `$"${s}"`),
  tricky.map((s) => s.replace(/./gs, (c) => `\\${c}`)),
  tricky,
);
const trick = fc.constantFrom(
  '$(touch P1)',
  '`touch P2`',
  '<(touch P3)',
  '${HOME}',
  '$HOME',
  '> P4',
  '>> P5',
  '2>&1',
  '>/dev/null',
  '< /etc/hostname',
  '<<EOF\nhello $(touch P6)\nEOF\n',
  '*',
  '{a,b}',
  '~',
  'X=1',
  '# comment',
  '--output=P7',
  "-O'touch P8'",
  '--upload-pack=touch',
  '--out=P9',
  '-exec=touch',
  '-toolexec touch',
  '--eval=x',
  'SHELL=touch',
);
const word = fc.oneof(
  { weight: 4, arbitrary: plain },
  { weight: 2, arbitrary: quoted },
  { weight: 1, arbitrary: trick },
);
const program = fc.constantFrom('git', 'npm', 'make', 'go', 'touch', 'rm', 'g"i"t', "'git'", '\\git', 'X=1 git');
const simple = fc.tuple(program, fc.array(word, { maxLength: 5 })).map(([p, ws]) => [p, ...ws].join(' '));
const separator = fc.constantFrom(' ; ', ' && ', ' || ', ' | ', ' & ', '\n', ';', '|');
// Lines shaped like approved ones (an approved prefix, then words in every quoting form), so that
// many reach the allow path and bash runs them.
const approvedShape = fc
  .tuple(
    fc.constantFrom(
      'git status',
      'git log',
      'npm test',
      'go test',
      'make build',
      'git grep',
      'git fetch',
      '\'git\' st"atus"',
    ),
    fc.array(fc.oneof(plain, quoted, quoted, trick), { maxLength: 3 }),
  )
  .map(([p, ws]) => [p, ...ws].join(' '));
const line = fc.oneof(
  simple,
  approvedShape,
  approvedShape,
  fc.tuple(simple, separator, simple).map((p) => p.join('')),
  fc
    .tuple(fc.constantFrom('(', '{ ', 'if true; then ', '! '), simple, fc.constantFrom(')', '; }', '; fi', ''))
    .map((p) => p.join('')),
);

/** What the user approved with "always" (remembered) and what their rules say (prefixes). */
const REMEMBERED: CommandScope[] = [
  'git status -s',
  'git log --oneline',
  'git grep hello',
  'npm test',
  'go test ./...',
  'make build',
  'git fetch origin',
].map((l) => commandScope(l)!);
const RULES = ['npm test', 'git status', 'git log', 'make', 'go test'];
const words = (s: string) => s.split(' ');
const startsWith = (argv: readonly string[], prefix: readonly string[]) => prefix.every((w, i) => argv[i] === w);
const norm = (argv: readonly string[]) => JSON.stringify(argv);

test('bash runs only what a remembered prefix or a rule allowed, and exactly what the model read', (t) => {
  let allowed = 0;
  let understood = 0;
  fc.assert(
    fc.property(line, (l) => {
      const model = analyzeCommandLine(l);
      assert.ok(model);
      const scopes = REMEMBERED.filter((s) => s.match === 'prefix' && scopeMatches(s, l, true));
      const rules = RULES.filter((p) => commandMatchesPrefix(l, p, true));
      const clean = model.unsafe.length === 0;
      if (!scopes.length && !rules.length && !clean) return;
      const run = judge.run(l);
      if (clean) {
        understood++;
        const read = new Set(model.commands.map((c) => norm(c.words)));
        for (const argv of run.ran)
          assert.ok(read.has(norm(argv)), `bash ran ${norm(argv)}; the model read ${[...read]}`);
      }
      if (scopes.length || rules.length) {
        allowed++;
        assert.deepEqual(run.created, [], 'no file appeared');
        assert.ok(run.ran.length >= 1, 'bash ran the approved command');
        for (const argv of run.ran)
          assert.equal(dangerousOption(argv), undefined, `no dangerous option in ${norm(argv)}`);
      }
      for (const s of scopes) {
        assert.equal(run.ran.length, 1, `one command for ${s.command}: ran ${JSON.stringify(run.ran)}`);
        const [argv] = run.ran;
        assert.ok(startsWith(argv, words(s.command)), `${norm(argv)} starts with ${s.command}`);
        for (const a of argv.slice(words(s.command).length))
          if (a.startsWith('-')) assert.ok(s.flags?.includes(a), `option ${a} was approved with ${s.command}`);
      }
      for (const p of rules)
        for (const argv of run.ran) assert.ok(startsWith(argv, words(p)), `${norm(argv)} starts with the rule's ${p}`);
    }),
    { numRuns: RUNS, verbose: 1 },
  );
  t.diagnostic(`${RUNS} lines: ${allowed} allowed and run, ${understood} understood by the model and run`);
  // The generator must reach the interesting cases, or the test proves nothing.
  assert.ok(allowed > RUNS / 100, `lines allowed: ${allowed}`);
  assert.ok(understood > RUNS / 10, `lines understood: ${understood}`);
});
