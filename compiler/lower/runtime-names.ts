// The runtime's names compiled code may import, declared once: the lowering
// uses no other (Lowerer.rt refuses one), and the bundle validator refuses a
// bundle that imports any other. The runtime exports more (the grant a run
// starts with, its limits, its budgets): those are the host's, and a bundle
// that could import them could make itself any grant.

const LIBRARY_MODULES = [
  "console",
  "time",
  "random",
  "environment",
  "filesystem",
  "http",
  "database",
  "process",
  "foreign",
  "server",
  "text",
  "list",
  "map",
  "sets",
  "math",
  "optional",
  "json",
  "bytes",
];

export const PROGRAM_RUNTIME: ReadonlySet<string> = new Set([
  // limits
  "S",
  "slow",
  "fuelRoom",
  "fuelLeft",
  "fuelBack",
  "tooDeep",
  "leave",
  "resume",
  // failures and crashes
  "Failure",
  "crash",
  "noArmFits",
  "checkFailed",
  // arithmetic
  "iadd",
  "isub",
  "imul",
  "idiv",
  "imod",
  "fmod",
  "index",
  // values
  "equals",
  "compare",
  "toText",
  "floatText",
  "encodeJson",
  "decodeJson",
  "describe",
  "NONE",
  "Some",
  "PRELUDE_RECORDS",
  "PRELUDE_VARIANTS",
  "Pair",
  "RMap",
  "concat",
  "appendInPlace",
  "pushInPlace",
  "pushOneInPlace",
  "rangeInclusive",
  "tadd",
  "tinterp",
  "mapGetOr",
  "mapGetPrimitiveOr",
  "mapPutPrimitive",
  "query",
  "groupBy",
  "sortRows",
  "mapConcurrent",
  "distinct",
  "pushRow",
  // shapes
  "INT",
  "FLOAT",
  "TEXT",
  "BOOL",
  "NOTHING",
  "BYTES",
  "JSON_SHAPE",
  "DYNAMIC",
  "FUNCTION",
  "shapeList",
  "shapeSet",
  "shapeMap",
  "shapePair",
  "shapeRecord",
  "shapeVariant",
  "shapeParam",
  // grants: only narrowing one the program was given
  "narrow",
  // the operators of a program with guards (rtlib/origin-ops.ts): compiled in only when a guard is declared
  "origins",
  "GuardedValue",
  // a narrated run (`--explain`): compiled in only when the lowering is asked to narrate
  "narration",
  // `node NAME.mjs`
  "runIfMain",
  ...LIBRARY_MODULES,
]);

/** The runtime's namespaces of library functions (`$list.map`). */
export const LIBRARY_NAMESPACES: ReadonlySet<string> = new Set(LIBRARY_MODULES);
