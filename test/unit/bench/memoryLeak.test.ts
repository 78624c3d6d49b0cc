// The memory bench's leak check (bench/memory.ts) with fewer, smaller cycles, so a leak of a
// whole session or client shows up in `npm test`: one leaked 300-call session holds ~0.5 MB,
// and 5 cycles of them would exceed the tolerance several times over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanupScripts, clientLeakCheck, sessionLeakCheck } from '../../../bench/lib/memory';

const SIZE = { toolCalls: 300, chunks: 300 };
const TOLERANCE_MB = 1;

test.after(() => cleanupScripts());

test(
  'memory: sessions opened and closed on one AgentClient do not accumulate on the heap',
  { timeout: 30_000 },
  async () => {
    const r = await sessionLeakCheck({ cycles: 5, warmup: 2, size: SIZE, toleranceMB: TOLERANCE_MB });
    assert.ok(
      r.ok,
      `heap grew ${r.growthMB} MB over ${r.cycles} sessions (tolerance ${TOLERANCE_MB} MB): ${JSON.stringify(r)}`,
    );
  },
);

test(
  'memory: AgentClient start → prompt → shutdown cycles do not accumulate on the heap',
  { timeout: 30_000 },
  async () => {
    const r = await clientLeakCheck({ cycles: 5, warmup: 2, size: SIZE, toleranceMB: TOLERANCE_MB });
    assert.ok(
      r.ok,
      `heap grew ${r.growthMB} MB over ${r.cycles} clients (tolerance ${TOLERANCE_MB} MB): ${JSON.stringify(r)}`,
    );
  },
);
