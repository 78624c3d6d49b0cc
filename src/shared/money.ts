// A cost as the user reads it, in the view's header and the Sessions view alike.

/** An amount in its unit; a sum too small for `digits` says so ("<$0.01") instead of showing 0. */
export function money(cost: { amount: number; currency: string }, digits = 2): string {
  const [sign, unit] = cost.currency === 'USD' ? ['$', ''] : ['', ` ${cost.currency}`];
  const min = 10 ** -digits;
  if (cost.amount > 0 && cost.amount < min) return `<${sign}${min.toFixed(digits)}${unit}`;
  return `${sign}${cost.amount.toFixed(digits)}${unit}`;
}
