// The prompt "Send Feedback" sends: every comment with its file relative to the workspace, its
// 1-based lines and the lines quoted in a fence no backtick run inside can close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feedbackPrompt, fenceLanguage, lineRange, quoteCode, relativePath } from '../../../src/review/feedbackPrompt';

const ROOT = [{ path: '/home/me/project', name: 'project' }];

test('two comments on two files make one prompt with each file, its lines, the quoted code and the note', () => {
  const prompt = feedbackPrompt(
    [
      {
        path: '/home/me/project/src/app.ts',
        start: 2,
        lines: ['const a = 1;', 'const b = 2;', 'export { a, b };'],
        notes: ['Rename these.'],
      },
      {
        path: '/home/me/project/lib/util.py',
        start: 11,
        lines: ['return None'],
        notes: ['Raise instead.', 'And log it.'],
      },
    ],
    ROOT,
  );
  assert.equal(
    prompt,
    [
      'Review comments on your changes (2 comments). Each names a file, its lines (1-based) and quotes them as they read now; please address each one.',
      '',
      'Comment 1 of 2: src/app.ts L3–L5',
      '```typescript',
      'const a = 1;',
      'const b = 2;',
      'export { a, b };',
      '```',
      'Rename these.',
      '',
      'Comment 2 of 2: lib/util.py L12',
      '```python',
      'return None',
      '```',
      'Raise instead.',
      '',
      'And log it.',
    ].join('\n'),
  );
});

test('line ranges are 1-based: one line is "L3", several "L3–L7"', () => {
  assert.equal(lineRange(2, 1), 'L3');
  assert.equal(lineRange(2, 5), 'L3–L7');
  assert.equal(lineRange(0, 1), 'L1');
});

test('code holding backticks is fenced with more backticks than its longest run', () => {
  assert.equal(quoteCode(['const s = `x`;'], 'js'), '```js\nconst s = `x`;\n```');
  const md = ['Run:', '```sh', 'npm test', '```'];
  const quoted = quoteCode(md, 'markdown');
  assert.equal(quoted, ['````markdown', ...md, '````'].join('\n'));
  const five = quoteCode(['a ````` b']);
  assert.ok(five.startsWith('``````\n') && five.endsWith('\n``````'), five);
});

test('a quoted fence inside the code cannot end the quote early', () => {
  const prompt = feedbackPrompt(
    [
      {
        path: '/home/me/project/README.md',
        start: 0,
        lines: ['```', 'not the end', '```'],
        notes: ['Fix the example.'],
      },
    ],
    ROOT,
  );
  const fence = prompt.split('\n').find((l) => /^`+markdown$/.test(l));
  assert.equal(fence, '````markdown');
  assert.ok(prompt.includes('\n```\nnot the end\n```\n````\nFix the example.'), prompt);
});

test('paths are relative to the workspace folder holding them, named by folder in a multi-root workspace', () => {
  assert.equal(relativePath('/home/me/project/src/a.ts', ROOT), 'src/a.ts');
  assert.equal(relativePath('/elsewhere/b.ts', ROOT), '/elsewhere/b.ts', 'outside every folder: absolute');
  assert.equal(
    relativePath('/home/me/project-two/c.ts', ROOT),
    '/home/me/project-two/c.ts',
    'a prefix is not a folder',
  );
  const roots = [
    { path: '/w/api', name: 'api' },
    { path: '/w/web', name: 'web' },
  ];
  assert.equal(relativePath('/w/web/src/page.tsx', roots), 'web/src/page.tsx');
  assert.equal(relativePath('C:\\w\\proj\\src\\a.ts', [{ path: 'C:\\w\\proj', name: 'proj' }]), 'src/a.ts');
});

test('the fence names the language from the file extension', () => {
  assert.equal(fenceLanguage('/p/a.ts'), 'typescript');
  assert.equal(fenceLanguage('/p/a.py'), 'python');
  assert.equal(fenceLanguage('/p/a.go'), 'go');
  assert.equal(fenceLanguage('/p/Dockerfile'), 'dockerfile');
  assert.equal(fenceLanguage('/p/.gitignore'), '');
  assert.equal(fenceLanguage('/p/LICENSE'), '');
});

test('a comment whose lines were deleted says so instead of quoting nothing', () => {
  const prompt = feedbackPrompt(
    [{ path: '/home/me/project/a.ts', start: 4, lines: [], notes: ['Put it back.'] }],
    ROOT,
  );
  assert.match(prompt, /\(1 comment\)/);
  assert.match(prompt, /Comment 1 of 1: a\.ts L5\n\(The commented lines have since been deleted\.\)\nPut it back\./);
  assert.doesNotMatch(prompt, /```/);
});
