// Large reads share one byte budget: a burst of paged fs/read_text_file calls holds at most the
// budget in memory at once, and every read still completes, in order of arrival.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ByteBudget } from '../../../src/client/files/byteBudget';
import { ChangeTracker } from '../../../src/client/changes/changeTracker';
import { FileSystemHandlers } from '../../../src/client/files/fileSystem';
import type { FsPort } from '../../../src/client/ports';
import { MemoryLogger } from '../../../src/common/logger';
import { until } from '../../support/until';
import { FakeDocs, FakeEdits, FakePermission, fakeWorkspace, nodeFs } from './fakePorts';

test('a byte budget admits work while it fits, first come first served, and never over capacity', async () => {
  const budget = new ByteBudget(100);
  const order: string[] = [];
  const a = await budget.acquire(60);
  const b = budget.acquire(60).then((r) => (order.push('b'), r));
  const c = budget.acquire(30).then((r) => (order.push('c'), r));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, [], 'c waits behind b even though it would fit: no starving a large read');
  assert.equal(budget.inUse, 60);
  a();
  const [rb, rc] = await Promise.all([b, c]);
  assert.deepEqual(order, ['b', 'c']);
  assert.equal(budget.inUse, 90);
  rb();
  rb();
  assert.equal(budget.inUse, 30, 'a release counts once');
  rc();
  const huge = await budget.acquire(1000);
  assert.equal(budget.inUse, 100, 'a request over the capacity takes the whole budget');
  huge();
});

test('concurrent paged reads of large files wait for the read budget instead of all buffering at once', async () => {
  const ws = join(realpathSync(mkdtempSync(join(tmpdir(), 'tandem-budget-'))), 'ws');
  mkdirSync(ws);
  for (let i = 0; i < 4; i++) writeFileSync(join(ws, `big${i}.txt`), `${'line\n'.repeat(40)}`); // 200 bytes
  let inFlight = 0;
  let most = 0;
  let sized = 0;
  const held: Array<() => void> = [];
  const fs: FsPort = {
    ...nodeFs,
    stat: async (p) => {
      const st = await nodeFs.stat(p);
      sized++;
      return st;
    },
    // Every read stays in flight until the test lets it finish.
    readFile: async (p) => {
      most = Math.max(most, ++inFlight);
      await new Promise<void>((go) => held.push(go));
      inFlight--;
      return nodeFs.readFile(p);
    },
  };
  const docs = new FakeDocs();
  const h = new FileSystemHandlers(
    {
      documents: docs,
      fs,
      edits: new FakeEdits(docs),
      workspace: fakeWorkspace(ws),
      permission: new FakePermission(),
      tracker: new ChangeTracker(),
      readBudget: new ByteBudget(450),
    },
    { cwd: ws, logger: new MemoryLogger(), session: () => undefined },
  );
  const reads = [0, 1, 2, 3].map((i) => h.read({ sessionId: 's', path: join(ws, `big${i}.txt`), line: 2, limit: 1 }));
  await until(() => sized === 4 && inFlight === 2, 2000, 'every read sized, two of them reading');
  // Nothing else stands between the other two and their readFile but the budget: give them turns.
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  assert.equal(inFlight, 2, 'the other two wait for room');
  let finished = 0;
  for (const r of reads) void r.then(() => finished++);
  while (finished < 4) {
    held.splice(0).forEach((go) => go());
    await new Promise((r) => setImmediate(r));
  }
  const results = await Promise.all(reads);
  assert.deepEqual(
    results.map((r) => r.content),
    ['line\n', 'line\n', 'line\n', 'line\n'],
  );
  assert.equal(most, 2, 'two 200-byte reads fit in 450 bytes, never three');
});
