// Exit codes (language.md section 14).
export const EXIT = {
  finished: 0,
  failed: 1,
  crashed: 2,
  refused: 3,
  cancelled: 130,
} as const;
