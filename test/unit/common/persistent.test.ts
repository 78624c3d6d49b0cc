import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PMap, PVec } from '../../../src/common/persistent';

test('PVec push/set keep old versions intact', () => {
  let v = PVec.empty<number>();
  const versions: PVec<number>[] = [];
  for (let i = 0; i < 200; i++) {
    v = v.push(i);
    versions.push(v);
  }
  assert.equal(v.length, 200);
  assert.deepEqual(
    v.toArray(),
    Array.from({ length: 200 }, (_, i) => i),
  );
  const w = v.set(100, -1);
  assert.equal(w.get(100), -1);
  assert.equal(v.get(100), 100);
  assert.equal(versions[50].length, 51);
  assert.equal(versions[50].get(51), undefined);
  assert.deepEqual(PVec.from([1, 2, 3]).push(4).toArray(), [1, 2, 3, 4]);
  assert.throws(() => v.set(500, 1), RangeError);
});

test('PMap set/get/size with shared structure and collisions', () => {
  let m = PMap.empty<number>();
  const keys = Array.from({ length: 5000 }, (_, i) => `toolu_${i}`);
  for (const k of keys) m = m.set(k, k.length);
  assert.equal(m.size, 5000);
  const m2 = m.set('toolu_7', 99);
  assert.equal(m2.size, 5000);
  assert.equal(m2.get('toolu_7'), 99);
  assert.equal(m.get('toolu_7'), 7);
  assert.equal(m.get('missing'), undefined);
  let n = 0;
  m.forEach(() => n++);
  assert.equal(n, 5000);
});

test('PVec across tail, chunk and block boundaries', () => {
  const N = 32 * 32 * 3 + 77;
  let v = PVec.empty<number>();
  for (let i = 0; i < N; i++) v = v.push(i);
  const old = v;
  for (const i of [0, 31, 32, 1023, 1024, 1025, 3071, 3072, N - 1]) {
    v = v.set(i, -i - 1);
    assert.equal(v.get(i), -i - 1);
    assert.equal(old.get(i), i);
  }
  assert.equal(v.length, N);
  const arr = v.toArray();
  assert.equal(arr.length, N);
  assert.equal(arr[1024], -1025);
  assert.equal(arr[500], 500);
  assert.equal(v.last(), -N);
});
