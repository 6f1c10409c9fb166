/**
 * The sizes a benchmark runs at: `fallback`, or the comma-separated list in the environment variable
 * `name`; positive whole numbers only, smallest first (the first is the small size a growth is
 * reported from, the last the one held to the acceptance).
 */
export function benchSizes(name: string, fallback: readonly number[]): number[] {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return [...fallback];
  const sizes = text.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`${name}="${text}": expected positive whole numbers separated by commas`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}
