// Diagnostics and their rendering live in report/diagnostics.ts, which the
// command line and a bundle run by Node import to show a run's outcome without
// loading the compiler; the compiler's phases keep importing them from here.
export * from "../report/diagnostics.js";
