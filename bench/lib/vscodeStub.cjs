// Loads an extension bundle in plain Node with a stub `vscode` module and calls activate(), in a
// fresh process (no module cache): `node bench/lib/vscodeStub.cjs <extension.js> [extensionPath]`.
// Prints one JSON line: require time, activate() time, and what activation did that it should
// not: runtime code generation (`new Function`, how ajv compiles a schema) and, when the
// extension is the unbundled transpile (out/), ajv instances and compile() calls.
// The stub: every vscode property is a callable, constructible stub; calls return thenables
// resolving to undefined; `configuration.get(key, default)` returns the default.
'use strict';
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { dirname, resolve } = require('node:path');

const typesFile = require.resolve('@types/vscode/index.d.ts', { paths: [resolve(__dirname, '../..')] });
const API_NAMES = [
  ...new Set(
    [
      // `comments` is declared without `export` in @types/vscode (a namespace of the module all the same).
      ...readFileSync(typesFile, 'utf8').matchAll(
        /^\s*(?:export )?(?:declare )?(?:class|namespace|enum|function|const|let|var) (\w+)/gm,
      ),
    ].map((m) => m[1]),
  ),
];

function stub(name, keys, thenable) {
  const target = function () {};
  const cache = new Map();
  const handler = {
    get(t, p) {
      if (cache.has(p)) return cache.get(p);
      if (p === 'then') return thenable ? (res) => Promise.resolve(undefined).then(res) : undefined;
      if (p === Symbol.iterator)
        return function* () {
          /* empty */
        };
      if (p === Symbol.toPrimitive || p === 'toString' || p === 'toJSON') return () => name;
      if (p === 'length') return 0;
      if (p === 'dispose') return () => {};
      const v = stub(`${name}.${String(p)}`);
      cache.set(p, v);
      return v;
    },
    set(t, p, v) {
      cache.set(p, v);
      return true;
    },
    defineProperty(t, p, d) {
      cache.set(p, d.value);
      return true;
    },
    ownKeys(t) {
      return keys ? [...Reflect.ownKeys(t), ...keys.filter((k) => !(k in t))] : Reflect.ownKeys(t);
    },
    getOwnPropertyDescriptor(t, p) {
      const d = Reflect.getOwnPropertyDescriptor(t, p);
      if (d) return d;
      if (keys && keys.includes(p)) return { configurable: true, enumerable: true, get: () => handler.get(t, p) };
      return undefined;
    },
    apply(t, self, args) {
      if (name.endsWith('.get')) return args[1];
      return stub(`${name}()`, undefined, true);
    },
    construct() {
      return stub(`new ${name}`);
    },
  };
  return new Proxy(target, handler);
}

const counts = { newFunction: 0, ajvInstances: 0, ajvCompiles: 0, ajvMs: 0 };
let vscodeStub;
const load = Module._load;
Module._load = function (request) {
  if (request === 'vscode') return (vscodeStub ??= stub('vscode', API_NAMES));
  if (request !== 'ajv') return load.apply(this, arguments);
  const t0 = performance.now();
  const m = load.apply(this, arguments);
  counts.ajvMs += performance.now() - t0;
  const Ajv = m.default;
  class CountedAjv extends Ajv {
    constructor(...a) {
      const t = performance.now();
      super(...a);
      counts.ajvInstances++;
      counts.ajvMs += performance.now() - t;
    }
    compile(...a) {
      const t = performance.now();
      try {
        return super.compile(...a);
      } finally {
        counts.ajvCompiles++;
        counts.ajvMs += performance.now() - t;
      }
    }
  }
  return { ...m, default: CountedAjv };
};

const file = resolve(process.argv[2]);
const extensionPath = resolve(process.argv[3] ?? dirname(dirname(file)));
const t0 = performance.now();
const ext = require(file);
const requireMs = performance.now() - t0;

// Count runtime code generation during activate() only.
const RealFunction = globalThis.Function;
globalThis.Function = new Proxy(RealFunction, {
  construct(t, args) {
    counts.newFunction++;
    return Reflect.construct(t, args);
  },
  apply(t, self, args) {
    counts.newFunction++;
    return Reflect.apply(t, self, args);
  },
});
const base = stub('context');
const own = {
  extensionPath,
  subscriptions: [],
  extension: { packageJSON: JSON.parse(readFileSync(resolve(extensionPath, 'package.json'), 'utf8')) },
};
const context = new Proxy({}, { get: (t, p) => (p in own ? own[p] : base[p]) });
let activateMs;
let error;
try {
  const t1 = performance.now();
  ext.activate(context);
  activateMs = performance.now() - t1;
} catch (e) {
  error = String((e && e.stack) || e)
    .split('\n')
    .slice(0, 3)
    .join(' | ');
}
globalThis.Function = RealFunction;
const r = (x) => (x === undefined ? undefined : +x.toFixed(1));
console.log(
  JSON.stringify({
    file,
    requireMs: r(requireMs),
    activateMs: r(activateMs),
    ...counts,
    ajvMs: r(counts.ajvMs),
    error,
  }),
);
// Tandem's activate() starts nothing that must finish; do not wait for stray stub timers.
process.exit(0);
