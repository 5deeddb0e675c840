/** A small deterministic random source in [0, 1), so a failure replays with the same seed. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}
