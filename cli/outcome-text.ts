// How a run's outcome is shown lives in report/outcome-text.ts, which a bundle
// run by Node loads too; the commands that show one import it from here.
export * from "../report/outcome-text.js";
