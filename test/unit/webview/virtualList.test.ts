// The virtual list learns one height per size class: once a row of a class is measured, new rows
// of it are laid out at that height before they are measured themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { settle } from './transcriptMount';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);
g.cancelAnimationFrame = (t: ReturnType<typeof setTimeout>) => clearTimeout(t);
// A ResizeObserver the test drives: it reports the heights the test says rows have.
const observers: FakeRO[] = [];
class FakeRO {
  readonly targets = new Set<Element>();
  constructor(readonly cb: (entries: { target: Element; borderBoxSize: { blockSize: number }[] }[]) => void) {
    observers.push(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.targets.clear();
  }
  report(height: (key: string) => number) {
    this.cb(
      [...this.targets].map((t) => ({
        target: t,
        borderBoxSize: [{ blockSize: height((t as HTMLElement).dataset.key ?? '') }],
      })),
    );
  }
}
g.ResizeObserver = FakeRO;

/** A list whose rows are tool calls (size class "tool") or anything else (no class). */
type R = { key: string; kind: 'tool' | 'msg' | 'open' };
function mount() {
  const { h, render } = require('preact') as typeof import('preact');
  const { VirtualList } =
    require('../../../src/webview/components/VirtualList') as typeof import('../../../src/webview/components/VirtualList');
  const root = document.getElementById('root')!;
  return {
    draw: (rows: R[]) =>
      render(
        h(VirtualList<R>, {
          rows,
          estimate: () => 24,
          sizeClass: (r: R) => (r.kind === 'tool' ? 'tool' : undefined),
          renderRow: (r: R) => h('div', null, r.key),
        }),
        root,
      ),
    innerHeight: () => parseFloat((root.querySelector('.vlist-inner') as HTMLElement).style.height),
    unmount: () => render(null, root),
  };
}

test('a measured size class sets the height of new rows of that class', async () => {
  const { draw, innerHeight, unmount } = mount();
  const rows: R[] = [
    { key: 'm0', kind: 'msg' },
    { key: 't0', kind: 'tool' },
    { key: 't1', kind: 'tool' },
  ];
  draw(rows);
  await settle();
  assert.equal(innerHeight(), 3 * 24 + 8, 'guesses before anything is measured');
  // The observer of the rows (not the one on the scroller) measures: tools 26 px, the message 40.
  const rowObserver = observers.find((o) => [...o.targets].some((t) => (t as HTMLElement).dataset.key === 't0'))!;
  rowObserver.report((k) => (k.startsWith('t') ? 26 : 40));
  await settle();
  assert.equal(innerHeight(), 40 + 2 * 26 + 8);
  // Two new tool rows and a new message: the tools start at 26, the message at the guess.
  draw([...rows, { key: 't2', kind: 'tool' }, { key: 't3', kind: 'tool' }, { key: 'm1', kind: 'msg' }]);
  await settle();
  assert.equal(innerHeight(), 40 + 4 * 26 + 24 + 8);
  unmount();
});

test('rows of a measured class are not observed, but one probe is; a row folding back takes the class height', async () => {
  const { draw, innerHeight, unmount } = mount();
  const rowObserver = () =>
    observers.find((o) => [...o.targets].some((t) => (t as HTMLElement).dataset.key?.startsWith('t')))!;
  const observed = () => [...rowObserver().targets].map((t) => (t as HTMLElement).dataset.key).sort();
  const rows: R[] = [
    { key: 't0', kind: 'tool' },
    { key: 't1', kind: 'tool' },
  ];
  draw(rows);
  await settle();
  assert.deepEqual(observed(), ['t0', 't1'], 'before the class is known every row is measured');
  rowObserver().report(() => 26);
  await settle();
  // Three more tool rows: only one row of the class stays observed (a probe of the class).
  const more: R[] = [...rows, { key: 't2', kind: 'tool' }, { key: 't3', kind: 'tool' }, { key: 't4', kind: 'tool' }];
  draw(more);
  await settle();
  assert.equal(observed().length, 1);
  assert.equal(innerHeight(), 5 * 26 + 8);
  // t1 expands (no class): observed and measured at 80; folding back, it is 26 again.
  const ro = rowObserver();
  draw(more.map((r) => (r.key === 't1' ? { ...r, kind: 'open' } : r)));
  await settle();
  assert.ok(observed().includes('t1'));
  assert.equal(observed().length, 2, 'the expanded row and a probe of the class');
  ro.cb(
    [...ro.targets]
      .filter((t) => (t as HTMLElement).dataset.key === 't1')
      .map((t) => ({ target: t, borderBoxSize: [{ blockSize: 80 }] })),
  );
  await settle();
  assert.equal(innerHeight(), 4 * 26 + 80 + 8);
  draw(more);
  await settle();
  assert.ok(!observed().includes('t1'));
  assert.equal(observed().length, 1);
  assert.equal(innerHeight(), 5 * 26 + 8, 'the expanded height is forgotten');
  unmount();
});

test('a list shown again opens at the row the reader was at (waiting for it to arrive), and reports where the reader scrolls', async () => {
  const { h, render } = require('preact') as typeof import('preact');
  const { VirtualList } =
    require('../../../src/webview/components/VirtualList') as typeof import('../../../src/webview/components/VirtualList');
  const root = document.getElementById('root')!;
  const reported: unknown[] = [];
  const rowsOf = (n: number): R[] => Array.from({ length: n }, (_, i) => ({ key: `r${i}`, kind: 'msg' as const }));
  const draw = (rows: R[]) =>
    render(
      h(VirtualList<R>, {
        rows,
        estimate: () => 24,
        renderRow: (r: R) => h('div', null, r.key),
        initialAnchor: { key: 'r150', offset: 5 },
        onAnchor: (a) => reported.push(a),
      }),
      root,
    );
  const scroller = () => root.firstElementChild as HTMLElement;
  // The anchor's row is not there yet (its turn is loading): the list waits for it.
  draw(rowsOf(100));
  await settle();
  assert.notEqual(scroller().scrollTop, 150 * 24 + 5);
  draw(rowsOf(200));
  await settle();
  assert.equal(scroller().scrollTop, 150 * 24 + 5, 'opened at the remembered row');
  assert.ok(root.querySelector('[data-key="r150"]'), 'the row is rendered');
  // The reader scrolls: the row at the top of the viewport and how far it is scrolled past.
  reported.length = 0;
  // jsdom lays nothing out: the scroller's sizes are the list's.
  Object.defineProperty(scroller(), 'scrollHeight', { value: 200 * 24 + 8 });
  Object.defineProperty(scroller(), 'clientHeight', { value: 600 });
  scroller().scrollTop = 40 * 24 + 3;
  scroller().dispatchEvent(new window.Event('scroll'));
  await settle();
  assert.deepEqual(reported.at(-1), { key: 'r40', offset: 3 });
  // At the end again: following, no anchor.
  scroller().scrollTop = 200 * 24 + 8 - 600;
  scroller().dispatchEvent(new window.Event('scroll'));
  await settle();
  assert.equal(reported.at(-1), undefined);
  render(null, root);
});

test('a row above the viewport growing keeps what is on screen in place; the row cut by the viewport top growing at its end moves nothing', async () => {
  const { h, render } = require('preact') as typeof import('preact');
  const { VirtualList } =
    require('../../../src/webview/components/VirtualList') as typeof import('../../../src/webview/components/VirtualList');
  const root = document.getElementById('root')!;
  const rows: R[] = Array.from({ length: 200 }, (_, i) => ({ key: `r${i}`, kind: 'msg' as const }));
  render(h(VirtualList<R>, { rows, estimate: () => 24, renderRow: (r: R) => h('div', null, r.key) }), root);
  await settle();
  const scroller = root.firstElementChild as HTMLElement;
  Object.defineProperty(scroller, 'scrollHeight', { value: 200 * 24 + 8 });
  Object.defineProperty(scroller, 'clientHeight', { value: 600 });
  // The reader is 10 px into r40 (not following the tail).
  scroller.scrollTop = 40 * 24 + 10;
  scroller.dispatchEvent(new window.Event('scroll'));
  await settle();
  const ro = observers.find((o) => [...o.targets].some((t) => (t as HTMLElement).dataset.key === 'r40'))!;
  const grow = (key: string, height: number) =>
    ro.cb(
      [...ro.targets]
        .filter((t) => (t as HTMLElement).dataset.key === key)
        .map((t) => ({ target: t, borderBoxSize: [{ blockSize: height }] })),
    );
  // r40 gets a changes list under its prompt: the reader still sees r40's first lines.
  grow('r40', 109);
  await settle();
  assert.equal(scroller.scrollTop, 40 * 24 + 10);
  // r30, wholly above, grows by 26: the scroll position follows, so the same text stays on screen.
  grow('r30', 50);
  await settle();
  assert.equal(scroller.scrollTop, 40 * 24 + 10 + 26);
  render(null, root);
});
