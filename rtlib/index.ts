// What compiled programs import: the only module a bundle may import
// (`renyi/runtime`). Everything a program does beyond plain computation goes
// through these names.

export { S, slow, tooDeep, resume, configureLimits, stepsUsed, checkCancelled } from "./limits.js";
export { served, serveWith, type ServingHost } from "./serving.js";
export { Failure, Crash, Cancelled, crash, noArmFits, isFailure, checkFailed, engineLimit } from "./errors.js";
export { iadd, isub, imul, idiv, imod, fmod, index } from "./ints.js";
export { equals, compare } from "./equality.js";
export { toText, floatText } from "./text.js";
export { encode as encodeJson, decode as decodeJson } from "./json.js";
export {
  describe,
  Pair,
  RMap,
  RSet,
  INT,
  FLOAT,
  TEXT,
  BOOL,
  NOTHING,
  BYTES,
  JSON_SHAPE,
  FUNCTION,
  DYNAMIC,
  list as shapeList,
  set as shapeSet,
  map as shapeMap,
  pair as shapePair,
  record as shapeRecord,
  variant as shapeVariant,
  param as shapeParam,
  type Shape,
  type TypeDesc,
  type VariantDesc,
} from "./values.js";
export { NONE, Some, some, OPTIONAL, PRELUDE_RECORDS, PRELUDE_VARIANTS } from "./prelude.js";
export { concat, appendInPlace, pushInPlace, pushRow, rangeInclusive } from "./lib/list.js";
export { query, groupBy, sortRows, mapConcurrent, distinct } from "./query.js";
export { checkInt } from "./ints.js";
export { tadd, tinterp } from "./limits-collections.js";
export { call as gatewayCall, observeWith, type Observer, type CallRecord } from "./gateway.js";
export { narration, configureNarration, type NarrationConfig } from "./narration.js";
export { hostCallLog, type HostCallEntry, type HostCallLog } from "./host-call-log.js";
export { outputState, errorState, outputLimits, configureInput } from "./output.js";
export { configureChildren, stopChildren } from "./children.js";

// The origin operators as one object of plain data properties: bundled, a module
// namespace's properties are getters, and a call through a getter is never
// inlined (bench/guards measured 3x to 7x on loops with no guarded data).
import * as originOps from "./origin-ops.js";
export const origins = Object.freeze({ ...originOps });
export { Guarded as GuardedValue } from "./origins.js";
export * as text from "./lib/text.js";
export * as list from "./lib/list.js";
export * as map from "./lib/map.js";
export * as sets from "./lib/sets.js";
export * as math from "./lib/math.js";
export * as optional from "./lib/optional.js";
export * as json from "./lib/json.js";
export * as console from "./lib/console.js";
export * as time from "./lib/time.js";
export * as random from "./lib/random.js";
export * as environment from "./lib/environment.js";
export * as filesystem from "./lib/filesystem.js";
export * as http from "./lib/http.js";
export * as database from "./lib/database.js";
export * as process from "./lib/process.js";
export * as foreign from "./lib/foreign.js";
export * as server from "./lib/server.js";
export { runIfMain } from "./entry.js";
export { Replayer } from "./recording/replayer.js";
export { recorder } from "./recording/encode.js";
export { grantText } from "../vocabulary/needs.js";
export { runMain, runTest, outcomeOf, runOutcomeOf, type Outcome, type RunConfig, type Program, type TestCase, type CheckFacts } from "./run-main.js";
export { EXIT } from "../vocabulary/outcomes.js";
export { narrow, rootGrant, Grant, Budgets, refusing, type GrantItem, type BudgetUnit } from "./grants.js";
export { narrowByCommandLine } from "./command-line-grant.js";
export { convertArguments, type MainParameter } from "./arguments.js";
