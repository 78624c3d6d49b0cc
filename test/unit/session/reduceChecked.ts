// Reduces session actions one by one as the host does, checking after each that the view's copy,
// patched with what the reducer sent, equals the host's state.
import assert from 'node:assert/strict';
import type { SessionAction } from '../../../src/session/actions';
import { createSessionState, reduce, type SessionState } from '../../../src/session/reducer';
import { toSnapshot } from '../../../src/session/snapshot';
import { applyPatches } from '../../../src/shared/patches';
import type { Patch } from '../../../src/shared/sessionModel';

export function reduceChecked(actions: SessionAction[], s: SessionState = createSessionState('s1')) {
  const mirror = toSnapshot(s);
  const all: Patch[] = [];
  for (const a of actions) {
    const r = reduce(s, a);
    s = r.state;
    all.push(...r.patches);
    applyPatches(mirror, r.patches);
    assert.deepEqual(mirror, toSnapshot(s), `mirror diverged after ${JSON.stringify(a).slice(0, 120)}`);
  }
  return { state: s, snap: toSnapshot(s), patches: all };
}
