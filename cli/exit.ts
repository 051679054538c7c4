// Exit codes (language.md section 14): one table, the runtime's, which a run
// started by `node DIR/NAME.mjs` ends with too.
export { EXIT } from "../rtlib/exit-codes.js";
