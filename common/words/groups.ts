/** The digits of `n` (≥ 0) in groups of three, lowest first: 1 234 567n → [567, 234, 1]; 0n → []. */
export function thousandGroups(n: bigint): number[] {
  const groups: number[] = [];
  for (let rest = n; rest > 0n; rest /= 1000n) groups.push(Number(rest % 1000n));
  return groups;
}
