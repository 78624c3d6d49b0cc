// Update detection. Registry versions start with MAJOR.MINOR.PATCH (the schema's pattern) but
// are not always strict semver: Cursor publishes dates such as 2026.07.23, others add a
// pre-release (`1.2.0-beta.1`) or build suffix. Compare the numeric core, then a release above
// its pre-releases, pre-release identifiers as semver orders them; build metadata is ignored.
export function compareVersions(a: string, b: string): number {
  const pa = split(a);
  const pb = split(b);
  for (let i = 0; i < 3; i++) if (pa.core[i] !== pb.core[i]) return pa.core[i] < pb.core[i] ? -1 : 1;
  if (!pa.pre.length || !pb.pre.length) return pa.pre.length === pb.pre.length ? 0 : pa.pre.length ? -1 : 1;
  for (let i = 0; i < Math.max(pa.pre.length, pb.pre.length); i++) {
    const x = pa.pre[i];
    const y = pb.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) < Number(y) ? -1 : 1;
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function split(v: string): { core: number[]; pre: string[] } {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?/.exec(v.trim());
  if (!m) return { core: [0, 0, 0], pre: [v] };
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}
