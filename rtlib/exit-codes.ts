// Exit codes (language.md section 14): how every run ends, whether `renyi run`
// or `node DIR/NAME.mjs` ran it, and what the commands return.
export const EXIT = {
  finished: 0,
  failed: 1,
  crashed: 2,
  refused: 3,
  cancelled: 130,
} as const;
