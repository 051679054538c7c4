// What compiled programs import: the only module a bundle may import
// (`renyi/runtime`). Everything a program does beyond plain computation goes
// through these names.

export {
  S,
  slow,
  fuelRoom,
  fuelLeft,
  fuelBack,
  tooDeep,
  leave,
  resume,
  configureLimits,
  stepsUsed,
  checkCancelled,
} from "./limits.js";
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
export { concat, appendInPlace, pushInPlace, pushOneInPlace, pushRow, rangeInclusive } from "./lib/list.js";
export { mapGetOr, mapGetPrimitiveOr, mapPutPrimitive } from "./values.js";
export { query, groupBy, sortRows, mapConcurrent, distinct } from "./query.js";
export { checkInt } from "./ints.js";
export { tadd, tinterp } from "./limits-collections.js";
export {
  call as gatewayCall,
  observeWith,
  durableWith,
  type Observer,
  type CallRecord,
  type DurableHooks,
} from "./gateway.js";
export {
  narration,
  configureNarration,
  watchDefinitions,
  type DefinitionWatcher,
  type NarrationConfig,
} from "./narration.js";
export {
  hostCallLog,
  outcomeOf as hostCallOutcome,
  targetOf as hostCallTarget,
  type HostCallEntry,
  type HostCallLog,
} from "./host-call-log.js";
export { outputState, errorState, outputLimits, configureInput } from "./output.js";
export { configureChildren, stopChildren } from "./children.js";

// The library's modules and the origin operators as objects of plain data
// properties: bundled, a module namespace's properties are getters, and a call
// through a getter is never inlined (bench/guards measured 3x to 7x on loops with
// no guarded data; a map's get and put each paid a getter call). Each is bound to
// a name of its own and exported as the module's (`consoleLibrary as console`), so
// that no binding of the bundled runtime is named after a global it may use.
import * as originOps from "./origin-ops.js";
export const origins = Object.freeze({ ...originOps });
export { Guarded as GuardedValue } from "./origins.js";
import * as textFunctions from "./lib/text.js";
const textLibrary = Object.freeze({ ...textFunctions });
export { textLibrary as text };
import * as listFunctions from "./lib/list.js";
const listLibrary = Object.freeze({ ...listFunctions });
export { listLibrary as list };
import * as mapFunctions from "./lib/map.js";
const mapLibrary = Object.freeze({ ...mapFunctions });
export { mapLibrary as map };
import * as setsFunctions from "./lib/sets.js";
const setsLibrary = Object.freeze({ ...setsFunctions });
export { setsLibrary as sets };
import * as bytesFunctions from "./lib/bytes.js";
const bytesLibrary = Object.freeze({ ...bytesFunctions });
export { bytesLibrary as bytes };
import * as mathFunctions from "./lib/math.js";
const mathLibrary = Object.freeze({ ...mathFunctions });
export { mathLibrary as math };
import * as optionalFunctions from "./lib/optional.js";
const optionalLibrary = Object.freeze({ ...optionalFunctions });
export { optionalLibrary as optional };
import * as jsonFunctions from "./lib/json.js";
const jsonLibrary = Object.freeze({ ...jsonFunctions });
export { jsonLibrary as json };
import * as consoleFunctions from "./lib/console.js";
const consoleLibrary = Object.freeze({ ...consoleFunctions });
export { consoleLibrary as console };
import * as timeFunctions from "./lib/time.js";
const timeLibrary = Object.freeze({ ...timeFunctions });
export { timeLibrary as time };
import * as randomFunctions from "./lib/random.js";
const randomLibrary = Object.freeze({ ...randomFunctions });
export { randomLibrary as random };
import * as environmentFunctions from "./lib/environment.js";
const environmentLibrary = Object.freeze({ ...environmentFunctions });
export { environmentLibrary as environment };
import * as filesystemFunctions from "./lib/filesystem.js";
const filesystemLibrary = Object.freeze({ ...filesystemFunctions });
export { filesystemLibrary as filesystem };
import * as httpFunctions from "./lib/http.js";
const httpLibrary = Object.freeze({ ...httpFunctions });
export { httpLibrary as http };
import * as databaseFunctions from "./lib/database.js";
const databaseLibrary = Object.freeze({ ...databaseFunctions });
export { databaseLibrary as database };
import * as processFunctions from "./lib/process.js";
const processLibrary = Object.freeze({ ...processFunctions });
export { processLibrary as process };
import * as foreignFunctions from "./lib/foreign.js";
const foreignLibrary = Object.freeze({ ...foreignFunctions });
export { foreignLibrary as foreign };
import * as serverFunctions from "./lib/server.js";
const serverLibrary = Object.freeze({ ...serverFunctions });
export { serverLibrary as server };
export { runIfMain } from "./entry.js";
export { Replayer, type ConsoleDifference } from "./recording/replayer.js";
export { recorder } from "./recording/encode.js";
export { DurableAttempt, type DurableAsk } from "./durable.js";
export { replayerOf, type RunReplayer } from "./recording/request-replayer.js";
export { callsOfChecked, type CheckedRecording } from "./recording/checked-recording.js";
export { loadedRequest, recordRequestsTo } from "./recording/requests.js";
export { grantText } from "../vocabulary/needs.js";
export {
  runMain,
  runTest,
  outcomeOf,
  runOutcomeOf,
  type Outcome,
  type RunConfig,
  type Program,
  type TestCase,
  type CheckFacts,
} from "./run-main.js";
export { EXIT } from "../vocabulary/outcomes.js";
export { narrow, rootGrant, Grant, Budgets, refusing, type GrantItem, type BudgetUnit } from "./grants.js";
export { narrowByCommandLine } from "./command-line-grant.js";
export { convertArguments, type MainParameter } from "./arguments.js";
