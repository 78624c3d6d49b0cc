import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact } from '../../../src/common/redact';

// Fake secrets, shaped like the real ones.
const GH = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const OPENAI = 'sk-' + 'proj-Ab12Cd34Ef56Gh78Ij90Kl12';
const SLACK = 'xoxb-' + '123456789012-abcdefABCDEF';
const AWS = 'AKIA' + 'IOSFODNN7EXAMPLE';

const cases: [string, string, string][] = [
  ['--token=', `gh api --token=hunter2secret repos`, 'gh api --token=*** repos'],
  ['--api-key value', `agent --api-key abc123def --verbose`, 'agent --api-key *** --verbose'],
  [
    'Bearer header',
    `curl -H "Authorization: Bearer abc.def.ghi" https://x`,
    'curl -H "Authorization: Bearer ***" https://x',
  ],
  ['GitHub token', `git push https://github.com/o/r ${GH}`, 'git push https://github.com/o/r ghp_***'],
  ['OpenAI key', `OPENAI_API_KEY=${OPENAI} node run.js`, 'OPENAI_API_KEY=*** node run.js'],
  ['bare sk- key', `echo ${OPENAI}`, 'echo sk-***'],
  ['Slack token', `notify ${SLACK}`, 'notify xoxb-***'],
  ['AWS key id', `aws configure set aws_access_key_id ${AWS}`, 'aws configure set aws_access_key_id AKIAIOSF***'],
  ['password=', `mysql password=s3cr3t -h db`, 'mysql password=*** -h db'],
  ['URL credentials', `git clone https://me:tok3n@github.com/o/r.git`, 'git clone https://me:***@github.com/o/r.git'],
  ['env assignment', `GITHUB_TOKEN='abc def' gh pr list`, 'GITHUB_TOKEN=*** gh pr list'],
];

for (const [what, input, expected] of cases)
  test(`masks a secret in a command line: ${what}`, () => {
    assert.equal(redact(input), expected);
  });

test('leaves ordinary command lines alone', () => {
  for (const line of [
    'npm test -- --grep "auth flow"',
    'git log --author=alice --oneline',
    'ls -la /home/user/project',
    'grep -rn token src/',
    'node --max-old-space-size=4096 build.js',
    'curl https://example.com:8080/path?q=1',
    'PWD=/tmp make',
    'echo max_tokens=5',
  ])
    assert.equal(redact(line), line);
});

// A backtracking blow-up would hang here (the test's timeout ends it); linear work is instant.
test('a very long line is masked without catastrophic backtracking', { timeout: 10_000 }, () => {
  const line = 'a'.repeat(200_000) + ' --token=x ' + '-'.repeat(100_000) + ' ' + 'x_'.repeat(100_000);
  assert.ok(redact(line).includes(' --token=*** '));
});
