// "What changed, in one look": the symbols a change touched, from the file's document symbols
// after it and the shared line diff: the innermost symbol is named, added when all of it is new.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeTouched, touchedSymbols, type SymbolSpan } from '../../../src/review/touchedSymbols';
import { lineDiff } from '../../../src/shared/lineDiff';

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');
const BEFORE = lines(
  'class Rules {',
  '  parseRules() {',
  '    return 0;',
  '  }',
  '  other() {',
  '    return 9;',
  '  }',
  '}',
  'const x = 1;',
);
const AFTER = lines(
  'class Rules {',
  '  parseRules() {',
  '    return 1;',
  '  }',
  '  other() {',
  '    return 9;',
  '  }',
  '  matchScope() {',
  '    return 2;',
  '  }',
  '}',
  'const x = 2;',
);
const SYMBOLS: SymbolSpan[] = [
  {
    name: 'Rules',
    startLine: 0,
    endLine: 10,
    children: [
      { name: 'parseRules', startLine: 1, endLine: 3 },
      { name: 'other', startLine: 4, endLine: 6 },
      { name: 'matchScope', startLine: 7, endLine: 9 },
    ],
  },
  { name: 'x', startLine: 11, endLine: 11 },
];

test('the innermost symbols are named: a changed method, an added one, not their class; untouched ones are left out', () => {
  const touched = touchedSymbols(SYMBOLS, lineDiff(BEFORE, AFTER).hunks);
  assert.deepEqual(touched, [
    { name: 'parseRules', change: 'changed' },
    { name: 'matchScope', change: 'added' },
    { name: 'x', change: 'changed' },
  ]);
  assert.equal(describeTouched(touched), 'parseRules changed, matchScope added, x changed');
});

test('lines removed inside a symbol change it; a change in the class outside its methods names the class', () => {
  const removed = lines('class Rules {', '  parseRules() {', '  }', '  other() {', '    return 9;', '  }', '}');
  const symbols: SymbolSpan[] = [
    {
      name: 'Rules',
      startLine: 0,
      endLine: 6,
      children: [
        { name: 'parseRules', startLine: 1, endLine: 2 },
        { name: 'other', startLine: 3, endLine: 5 },
      ],
    },
  ];
  const before = lines(
    'class Rules {',
    '  parseRules() {',
    '    return 0;',
    '  }',
    '  other() {',
    '    return 9;',
    '  }',
    '}',
  );
  assert.deepEqual(touchedSymbols(symbols, lineDiff(before, removed).hunks), [
    { name: 'parseRules', change: 'changed' },
  ]);
  const field = lines(
    'class Rules {',
    '  size = 3;',
    '  parseRules() {',
    '  }',
    '  other() {',
    '    return 9;',
    '  }',
    '}',
  );
  const withField: SymbolSpan[] = [{ ...symbols[0], endLine: 7, children: [] }];
  assert.deepEqual(touchedSymbols(withField, lineDiff(removed, field).hunks), [{ name: 'Rules', change: 'changed' }]);
});

test('a long list is cut and says how many more', () => {
  const many = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, change: 'added' as const }));
  assert.match(describeTouched(many), /^f0 added, .*f7 added and 3 more$/);
});

test('a new section after a rewritten line is added; a rewritten line that names the symbol is a change', () => {
  const before = lines('# Usage', '', 'Run it.');
  const after = lines('# Usage', '', 'Run it twice.', '', '# Limits', '', 'None yet.');
  const symbols: SymbolSpan[] = [
    { name: '# Usage', startLine: 0, endLine: 3 },
    { name: '# Limits', startLine: 4, endLine: 6 },
  ];
  assert.deepEqual(touchedSymbols(symbols, lineDiff(before, after).hunks), [
    { name: '# Usage', change: 'changed' },
    { name: '# Limits', change: 'added' },
  ]);
  // `max` is not `x`: the old line does not name x, so x (all new) was added.
  const x: SymbolSpan[] = [{ name: 'x', startLine: 0, endLine: 0 }];
  assert.deepEqual(touchedSymbols(x, lineDiff(lines('const max = 1;'), lines('const x = 2;')).hunks), [
    { name: 'x', change: 'added' },
  ]);
});
