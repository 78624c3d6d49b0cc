import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import type { CallFacts } from '../../../../src/client/permissions/callFacts';
import { commandScope, isLauncher, scopeMatches } from '../../../../src/client/permissions/commandScope';
import { loadBashParser } from '../../../../src/client/permissions/shell/bashParser';
import {
  matchesRemembered,
  memoryMemento,
  patternFor,
  RememberedDecisions,
  type RememberedDecision,
} from '../../../../src/client/permissions/remembered';

const ROOT = '/home/user/project';
const ALWAYS: PermissionOption = { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' };
const bash = (command: string): CallFacts => ({
  toolCallId: 't',
  kind: 'execute',
  title: command,
  tool: 'Bash',
  command,
  paths: [],
});
before(async () => {
  assert.ok(await loadBashParser());
});
const remember = (command: string) => patternFor(bash(command), 'Claude', ALWAYS, [ROOT], 1)!;
const allows = (d: RememberedDecision, command: string) => matchesRemembered(d, bash(command), 'Claude', [ROOT]);

test('an interpreter or launcher is remembered by its exact command line, never by the program name', () => {
  const one = `node -e "console.log('one')"`;
  for (const line of [
    one,
    'python3 script.py',
    'python3.12 -c "print(1)"',
    'bash -c "ls"',
    'sh x.sh',
    'zsh -c ls',
    'npx prettier --write .',
    'env FOO=1 ls',
    'sudo ls',
    'deno run x.ts',
    'bun run x.ts',
    'ruby -e 1',
    'perl -e 1',
    'pwsh -c ls',
    '/usr/bin/node x.js',
  ])
    assert.deepEqual(commandScope(line), { match: 'exact', command: line }, line);
  const d = remember(one);
  assert.equal(d.command, one);
  assert.equal(d.commandMatch, 'exact');
  assert.ok(allows(d, one));
  assert.ok(!allows(d, `node -e "require('fs').writeFileSync('x', 'y')"`));
  assert.ok(!allows(d, `${one} --inspect`), 'not even the same line with more arguments');
  assert.ok(!allows(d, 'node'));
  assert.ok(isLauncher('/usr/local/bin/python3.11') && isLauncher('npx') && !isLauncher('git'));
});

test('a tool with subcommands is remembered as "program subcommand", shown as such, matching one command only', () => {
  assert.deepEqual(commandScope('git status -s'), { match: 'prefix', command: 'git status', flags: ['-s'] });
  assert.deepEqual(commandScope('npm test'), { match: 'prefix', command: 'npm test', flags: [] });
  assert.deepEqual(commandScope('npm run lint -- --fix'), {
    match: 'prefix',
    command: 'npm run lint',
    flags: ['--', '--fix'],
  });
  const d = remember('git status');
  assert.match(d.id, /Always allow Bash: `git status …` \(one command; any other arguments, no options; never chained/);
  assert.ok(allows(d, 'git status'));
  assert.ok(allows(d, 'git status src/'));
  assert.ok(!allows(d, 'git status --short'), 'an option the approved line did not have asks again');
  assert.ok(allows(remember('git status --short'), 'git status --short src'));
  assert.ok(!allows(d, 'git statuses'));
  assert.ok(!allows(d, 'git push'));
  // Chained, substituted or redirected commands never match a remembered prefix.
  assert.ok(!allows(d, 'git status && rm -rf ~'));
  assert.ok(!allows(d, 'git status; git status'));
  assert.ok(!allows(d, 'git status | sh'));
  assert.ok(!allows(d, 'git status $(rm -rf ~)'));
  assert.ok(!allows(d, 'git status `rm -rf ~`'));
  assert.ok(!allows(d, 'git status > ~/.bashrc'));
});

test('subcommands that launch anything, assignments, options and chains keep the exact line', () => {
  for (const line of [
    'npm exec foo',
    'pnpm dlx create-x',
    'yarn dlx x',
    'npm run',
    'docker run -v /:/h alpine',
    'uv run python -c 1',
    'go run example.com/x@latest',
    'git -c core.pager=sh log',
    'git config alias.x "!sh"',
    'FOO=1 make check',
    'ls -la',
    'rm -rf build',
    'git status && git diff',
    'git log > out.txt',
    'npm install left-pad',
    'git submodule foreach "rm -rf ~"',
    'git log --output=/tmp/x',
    'make test SHELL=/tmp/x',
  ])
    assert.deepEqual(commandScope(line), { match: 'exact', command: line }, line);
  assert.equal(commandScope('   '), undefined);
  const ls = remember('ls -la');
  assert.ok(allows(ls, 'ls -la') && !allows(ls, 'ls -la /etc'));
});

test('a remembered rejection tightens: any segment starting with its prefix is rejected', () => {
  const d = patternFor(bash('git push origin'), 'Claude', { ...ALWAYS, kind: 'reject_always' }, [ROOT], 1)!;
  assert.equal(d.decision, 'reject');
  assert.ok(matchesRemembered(d, bash('ls && git push -f'), 'Claude', [ROOT]));
  assert.ok(matchesRemembered(d, bash('(git push origin main)'), 'Claude', [ROOT]), 'inside a subshell too');
  assert.ok(matchesRemembered(d, bash('echo $(git push)'), 'Claude', [ROOT]), 'inside a substitution too');
  assert.ok(matchesRemembered(d, bash('command git push'), 'Claude', [ROOT]), 'through a wrapper too');
  assert.ok(scopeMatches({ match: 'prefix', command: 'git push' }, 'git push', true));
});

test('decisions remembered with the old program-name key never allow and are dropped; old rejections stay', async () => {
  const legacy: RememberedDecision[] = [
    {
      id: 'Always allow Bash: node …',
      agent: 'Claude',
      decision: 'allow',
      tool: 'Bash',
      kind: 'execute',
      command: 'node',
      at: 1,
    },
    {
      id: 'Always reject Bash: rm …',
      agent: 'Claude',
      decision: 'reject',
      tool: 'Bash',
      kind: 'execute',
      command: 'rm',
      at: 1,
    },
    {
      id: 'Always allow Edit on a.ts',
      agent: 'Claude',
      decision: 'allow',
      tool: 'Edit',
      kind: 'edit',
      path: 'a.ts',
      at: 1,
    },
  ];
  const store = new RememberedDecisions(memoryMemento(legacy));
  assert.equal(store.find(bash(`node -e "1"`), 'Claude', [ROOT]), undefined, 'the wide entry does not allow');
  assert.equal(store.find(bash('rm -rf x'), 'Claude', [ROOT])?.decision, 'reject');
  const dropped = await store.dropWideCommandDecisions();
  assert.deepEqual(
    dropped.map((d) => d.id),
    ['Always allow Bash: node …'],
  );
  assert.deepEqual(
    store.list().map((d) => d.id),
    ['Always reject Bash: rm …', 'Always allow Edit on a.ts'],
  );
  assert.deepEqual(await store.dropWideCommandDecisions(), [], 'nothing more to drop');
});

/** Lines that fooled the regex matcher: each ran an injected command under a remembered `git status` or a rule. */
const INJECTIONS = [
  `git status "'" $(touch /tmp/PWNED) "'"`,
  `git status \\'$(touch /tmp/PWNED)\\'`,
  `git status $'\\'' ; touch /tmp/PWNED ; echo $'\\''`,
  `git status >/dev/null status2 ; touch /tmp/PWNED`,
  `git status\ntouch /tmp/PWNED`,
  `git status & touch /tmp/PWNED`,
  `git status <(touch /tmp/PWNED)`,
  `git status <<EOF\n$(touch /tmp/PWNED)\nEOF`,
  `git status \${HOME}`,
  `git status *`,
  `git status {--output=x,y}`,
];

test('quoting, escapes and ANSI-C strings never smuggle a command past a remembered prefix', () => {
  const d = remember('git status -s');
  for (const line of INJECTIONS) assert.ok(!allows(d, line), line);
  for (const line of INJECTIONS) assert.equal(commandScope(line)?.match, 'exact', line);
});

test('a remembered prefix never covers an option that runs code or writes elsewhere', () => {
  const cases: Array<[approved: string, attack: string]> = [
    ['git grep hello', `git grep -O'touch x' hello`],
    ['git grep -O hello', 'git grep -Otouch hello'],
    ['git fetch origin', `git fetch --upload-pack='touch x' .`],
    ['git log --oneline', 'git log --oneline --output=/tmp/x'],
    ['git log --oneline', 'git log --oneline --out=/tmp/x'],
    ['git diff HEAD', 'git diff HEAD --output=/tmp/x'],
    ['git rebase main', 'git rebase -x "touch x" main'],
    ['go test ./...', 'go test -exec touch ./...'],
    ['go test ./...', 'go test -toolexec=touch ./...'],
    ['make build', 'make build --eval=x'],
    ['make build', 'make -f /tmp/evil build'],
    ['make build', 'make build SHELL=/tmp/evil'],
  ];
  for (const [approved, attack] of cases) {
    assert.ok(allows(remember(approved), approved), approved);
    assert.ok(!allows(remember(approved), attack), `${approved} must not allow ${attack}`);
  }
  for (const line of [
    'npm explore x -- touch y',
    'docker compose exec web sh',
    'apt-get -o APT::Update::Pre-Invoke::=x update',
    'git submodule foreach x',
  ])
    assert.equal(commandScope(line)?.match, 'exact', line);
});

test('only spaces and tabs separate words, as in bash: \\v, \\f and Unicode spaces stay part of the line', () => {
  const d = remember('ls -la');
  for (const line of ['ls -la\u00a0', 'ls -la\v', 'ls\u00a0-la', '\fls -la'])
    assert.ok(!allows(d, line), JSON.stringify(line));
  assert.equal(commandScope('git status\v-s')?.match, 'exact', 'the grammar skips \\v; bash does not');
  assert.ok(!allows(remember('git status'), 'git status \f--output=x'));
});

test('a line too long or too deeply nested to read is matched only by its exact text, and reject rules still see it', () => {
  const long = `git status ${'a '.repeat(9000)}`;
  assert.equal(commandScope(long)?.match, 'exact');
  const deep = `${'('.repeat(5000)}git push${')'.repeat(5000)}`;
  assert.equal(commandScope(deep)?.match, 'exact');
  const reject = patternFor(bash('git push'), 'Claude', { ...ALWAYS, kind: 'reject_always' }, [ROOT], 1)!;
  assert.ok(matchesRemembered(reject, bash(deep), 'Claude', [ROOT]));
  assert.ok(matchesRemembered(reject, bash(`${long}; git push`), 'Claude', [ROOT]));
});
