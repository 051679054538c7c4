// A command cannot go on, for a reason the user can act on: called wrongly (an
// unknown command or option, no file), or a folder it needs cannot be made.
// Shown as one sentence, `error: ...`, with exit 3 (failure.ts). CommonJS, so
// that the CommonJS parts of the command (the compile cache) can throw it too.

export class Refusal extends Error {}
