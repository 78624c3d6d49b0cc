// How many generated cases each property runs: a reduced count in `npm test`, the full count
// with FULL=1 (`npm run bench` sets it too). The sum over the fuzz suite stays ≥ 100,000.
export const FULL = process.env.FULL === '1';
export function runs(normal: number): number {
  return FULL ? normal * 10 : normal;
}
