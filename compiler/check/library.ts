// The standard library's declarations, written in Renyi itself: the prelude's
// types, and each module's functions as signatures (bodies are empty; the
// runtime in rtlib/ implements them). The checker reads these exactly as it
// reads a user's module, so the library's types print and check like any other.
//
// Conventions the checker knows:
// - a parameter labelled `as` whose type is a bare type parameter takes a type
//   argument (`json.decode(text, as: Reading)`);
// - a library parameter of function type accepts a function with any needs,
//   and the call then needs what that function needs;
// - `sum`, `average`, `abs`, `min`, `max` of math take Int or Float only, and
//   `sort`, `min`, `max` of lists need comparable items.

/** Types in scope everywhere, unqualified. */
export const PRELUDE = `
public type Optional<T> is variant
  None
  Some(value: T)
end

public type Response is record
  status: Int
  headers: Map<Text, Text>
  body: Text
  bytes: Bytes
end

public type Request is record
  method: Text
  path: Text
  query: Map<Text, Text>
  headers: Map<Text, Text>
  body: Text
  bytes: Bytes
end

public type Instant is record
  milliseconds: Int
end

public type Date is record
  year: Int
  month: Int
  day: Int
end

public type Duration is record
  milliseconds: Int
end

public type Database is record
  path: Text
end

public type ProcessResult is record
  exit_code: Int
  stdout: Text
  stderr: Text
end

public type HttpError is variant
  HostNotAllowed(host: Text)
  PermissionDenied(host: Text)
  OverBudget(host: Text)
  InvalidUrl(url: Text)
  Timeout(url: Text)
  Unreachable(url: Text, reason: Text)
end

public type FileError is variant
  PermissionDenied(path: Text)
  OverBudget(path: Text)
  NotFound(path: Text)
  Failed(path: Text, reason: Text)
end

public type DbError is variant
  PermissionDenied(path: Text)
  OverBudget(path: Text)
  Sql(message: Text)
  Constraint(message: Text)
end

public type StartError is variant
  PermissionDenied(port: Int)
  OverBudget(port: Int)
  InUse(port: Int)
  InvalidPort(port: Int)
end

public type ProcessError is variant
  PermissionDenied(program: Text)
  OverBudget(program: Text)
  NotFound(program: Text)
  Failed(program: Text, reason: Text)
end

public type ForeignError is variant
  PermissionDenied(module: Text)
  Failed(module: Text, reason: Text)
end

public type JsonError is variant
  Syntax(message: Text, offset: Int)
  Shape(path: Text, expected: Text, found: Text)
end

public type ParseError is record
  text: Text
  expected: Text
end

public type Guarded is record
  origin: Text
  sink: Text
end

public type Group<K, T> is record
  key: K
  items: List<T>
end
`;

/** Type names that stand for another type (language.md section 15). */
export const ALIASES: ReadonlyMap<string, string> = new Map([
  ["Path", "Text"],
  ["Port", "Int"],
  ["Row", "Map<Text, Json>"],
]);

/** Each library module's functions. */
export const MODULES: Readonly<Record<string, string>> = {
  console: `
public function print(text: Text)
  needs console
end
public function error(text: Text)
  needs console
end
public function read_line() returns Optional<Text>
  needs console
end
`,
  time: `
public function now() returns Instant
  needs time
end
public function today() returns Date
  needs time
end
public function sleep(duration: Duration)
  needs time
end
public function milliseconds(n: Int) returns Duration
end
public function seconds(n: Int) returns Duration
end
public function minutes(n: Int) returns Duration
end
public function hours(n: Int) returns Duration
end
public function since(start: Instant, finish: Instant) returns Duration
end
public function add(instant: Instant, duration: Duration) returns Instant
end
public function to_iso(instant: Instant) returns Text
end
`,
  random: `
public function integer(low: Int, high: Int) returns Int
  needs random
end
public function float() returns Float
  needs random
end
public function choice<T>(items: List<T>) returns Optional<T>
  needs random
end
public function shuffle<T>(items: List<T>) returns List<T>
  needs random
end
public function uuid() returns Text
  needs random
end
`,
  environment: `
public function get(name: Text) returns Optional<Text>
  needs environment
end
`,
  http: `
public function get(url: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
public function post(url: Text, body: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
public function put(url: Text, body: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
public function patch(url: Text, body: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
public function delete(url: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
public function request(method: Text, url: Text, body: Text = "", headers: Map<Text, Text> = {}, timeout: Optional<Duration> = None) returns Response or fails with HttpError
  needs network.http
end
`,
  server: `
public function serve(port: Int, handler: function(Request) returns Response, requests: Optional<Int> = None) or fails with StartError
  needs network.socket
end
public function respond(status: Int, body: Text, headers: Map<Text, Text> = {}) returns Response
end
`,
  filesystem: `
public function read_text(path: Text) returns Text or fails with FileError
  needs filesystem.read
end
public function read_bytes(path: Text) returns Bytes or fails with FileError
  needs filesystem.read
end
public function list(path: Text) returns List<Text> or fails with FileError
  needs filesystem.read
end
public function exists(path: Text) returns Boolean or fails with FileError
  needs filesystem.read
end
public function write_text(path: Text, text: Text) or fails with FileError
  needs filesystem.write
end
public function write_bytes(path: Text, bytes: Bytes) or fails with FileError
  needs filesystem.write
end
public function append_text(path: Text, text: Text) or fails with FileError
  needs filesystem.write
end
public function remove(path: Text) or fails with FileError
  needs filesystem.write
end
`,
  database: `
public function open(path: Text) returns Database or fails with DbError
  needs filesystem.database
end
public function query<T>(db: Database, sql: Text, parameters: List<Json> = [], as: T) returns List<T> or fails with DbError
  needs filesystem.database
end
public function execute(db: Database, sql: Text, parameters: List<Json> = []) returns Int or fails with DbError
  needs filesystem.database
end
public function transaction<T>(db: Database, work: function(Database) returns T) returns T or fails with DbError
  needs filesystem.database
end
`,
  process: `
public function run(program: Text, arguments: List<Text> = [], input: Text = "") returns ProcessResult or fails with ProcessError
  needs process
end
`,
  foreign: `
public function call(module: Text, function: Text, arguments: List<Json> = []) returns Json or fails with ForeignError
  needs foreign
end
`,
  json: `
public function encode<T>(value: T) returns Text
end
public function decode<T>(text: Text, as: T) returns T or fails with JsonError
end
public function parse(text: Text) returns Json or fails with JsonError
end
public function get(value: Json, key: Text) returns Optional<Json>
end
public function at(value: Json, index: Int) returns Optional<Json>
end
public function to_text(value: Json) returns Text
end
`,
  text: `
public function length(text: Text) returns Int
end
public function is_empty(text: Text) returns Boolean
end
public function upper(text: Text) returns Text
end
public function lower(text: Text) returns Text
end
public function trim(text: Text) returns Text
end
public function trim_start(text: Text) returns Text
end
public function trim_end(text: Text) returns Text
end
public function split(text: Text, separator: Text) returns List<Text>
end
public function join(parts: List<Text>, separator: Text) returns Text
end
public function lines(text: Text) returns List<Text>
end
public function contains(text: Text, part: Text) returns Boolean
end
public function starts_with(text: Text, prefix: Text) returns Boolean
end
public function ends_with(text: Text, suffix: Text) returns Boolean
end
public function replace(text: Text, old: Text, new: Text) returns Text
end
public function index_of(text: Text, part: Text) returns Optional<Int>
end
public function slice(text: Text, start: Int, end: Int) returns Text
end
public function repeat(text: Text, times: Int) returns Text
end
public function reverse(text: Text) returns Text
end
public function pad_start(text: Text, width: Int, fill: Text = " ") returns Text
end
public function pad_end(text: Text, width: Int, fill: Text = " ") returns Text
end
public function to_int(text: Text) returns Int or fails with ParseError
end
public function to_float(text: Text) returns Float or fails with ParseError
end
public function to_bytes(text: Text) returns Bytes
end
public function from_bytes(bytes: Bytes) returns Text or fails with ParseError
end
`,
  list: `
public function length<T>(items: List<T>) returns Int
end
public function count<T>(items: List<T>) returns Int
end
public function is_empty<T>(items: List<T>) returns Boolean
end
public function get<T>(items: List<T>, index: Int) returns Optional<T>
end
public function first<T>(items: List<T>) returns Optional<T>
end
public function last<T>(items: List<T>) returns Optional<T>
end
public function map<T, U>(items: List<T>, transform: function(T) returns U) returns List<U>
end
public function filter<T>(items: List<T>, keep: function(T) returns Boolean) returns List<T>
end
public function fold<T, A>(items: List<T>, initial: A, combine: function(A, T) returns A) returns A
end
public function find<T>(items: List<T>, matches: function(T) returns Boolean) returns Optional<T>
end
public function any<T>(items: List<T>, matches: function(T) returns Boolean) returns Boolean
end
public function all<T>(items: List<T>, matches: function(T) returns Boolean) returns Boolean
end
public function flat_map<T, U>(items: List<T>, transform: function(T) returns List<U>) returns List<U>
end
public function flatten<T>(items: List<List<T>>) returns List<T>
end
public function sort<T>(items: List<T>) returns List<T>
end
public function sort_by<T, K>(items: List<T>, key: function(T) returns K) returns List<T>
end
public function reverse<T>(items: List<T>) returns List<T>
end
public function zip<A, B>(first: List<A>, second: List<B>) returns List<(A, B)>
end
public function enumerate<T>(items: List<T>) returns List<(Int, T)>
end
public function unique<T>(items: List<T>) returns List<T>
end
public function contains<T>(items: List<T>, item: T) returns Boolean
end
public function index_of<T>(items: List<T>, item: T) returns Optional<Int>
end
public function append<T>(items: List<T>, item: T) returns List<T>
end
public function take<T>(items: List<T>, count: Int) returns List<T>
end
public function drop<T>(items: List<T>, count: Int) returns List<T>
end
public function slice<T>(items: List<T>, start: Int, end: Int) returns List<T>
end
public function chunks<T>(items: List<T>, size: Int) returns List<List<T>>
end
public function sum<T>(items: List<T>) returns T
end
public function average<T>(items: List<T>) returns Optional<Float>
end
public function min<T>(items: List<T>) returns Optional<T>
end
public function max<T>(items: List<T>) returns Optional<T>
end
public function to_set<T>(items: List<T>) returns Set<T>
end
public function to_map<K, V>(entries: List<(K, V)>) returns Map<K, V>
end
public function range(start: Int, finish: Int) returns List<Int>
end
`,
  map: `
public function get<K, V>(map: Map<K, V>, key: K) returns Optional<V>
end
public function contains<K, V>(map: Map<K, V>, key: K) returns Boolean
end
public function put<K, V>(map: Map<K, V>, key: K, value: V) returns Map<K, V>
end
public function remove<K, V>(map: Map<K, V>, key: K) returns Map<K, V>
end
public function keys<K, V>(map: Map<K, V>) returns List<K>
end
public function values<K, V>(map: Map<K, V>) returns List<V>
end
public function entries<K, V>(map: Map<K, V>) returns List<(K, V)>
end
public function length<K, V>(map: Map<K, V>) returns Int
end
public function is_empty<K, V>(map: Map<K, V>) returns Boolean
end
public function merge<K, V>(first: Map<K, V>, second: Map<K, V>) returns Map<K, V>
end
`,
  sets: `
public function contains<T>(set: Set<T>, item: T) returns Boolean
end
public function add<T>(set: Set<T>, item: T) returns Set<T>
end
public function remove<T>(set: Set<T>, item: T) returns Set<T>
end
public function length<T>(set: Set<T>) returns Int
end
public function is_empty<T>(set: Set<T>) returns Boolean
end
public function to_list<T>(set: Set<T>) returns List<T>
end
public function union<T>(first: Set<T>, second: Set<T>) returns Set<T>
end
public function intersection<T>(first: Set<T>, second: Set<T>) returns Set<T>
end
public function difference<T>(first: Set<T>, second: Set<T>) returns Set<T>
end
`,
  optional: `
public function or_else<T>(value: Optional<T>, fallback: T) returns T
end
public function is_some<T>(value: Optional<T>) returns Boolean
end
public function is_none<T>(value: Optional<T>) returns Boolean
end
public function map<T, U>(value: Optional<T>, transform: function(T) returns U) returns Optional<U>
end
public function to_list<T>(value: Optional<T>) returns List<T>
end
`,
  math: `
public function abs<T>(n: T) returns T
end
public function min<T>(a: T, b: T) returns T
end
public function max<T>(a: T, b: T) returns T
end
public function round(x: Float) returns Int
end
public function floor(x: Float) returns Int
end
public function ceil(x: Float) returns Int
end
public function sqrt(x: Float) returns Float
end
public function pow(x: Float, exponent: Float) returns Float
end
public function to_float(n: Int) returns Float
end
public function pi() returns Float
end
`,
};

/** The module whose functions a value's methods are (language.md section 15). */
export const METHOD_MODULES: ReadonlyMap<string, string> = new Map([
  ["Text", "text"],
  ["List", "list"],
  ["Map", "map"],
  ["Set", "sets"],
  ["Int", "math"],
  ["Float", "math"],
  ["Json", "json"],
  ["Instant", "time"],
  ["Optional", "optional"],
]);

/** Library functions restricted to Int or Float, at their first type parameter. */
export const NUMERIC_FUNCTIONS: ReadonlySet<string> = new Set(["list.sum", "list.average", "math.abs", "math.min", "math.max"]);

/** Library functions whose items must be comparable. */
export const COMPARING_FUNCTIONS: ReadonlySet<string> = new Set(["list.sort", "list.sort_by", "list.min", "list.max", "math.min", "math.max"]);

/** Library functions whose items must be hashable. */
export const HASHING_FUNCTIONS: ReadonlySet<string> = new Set(["list.unique", "list.to_set", "list.to_map"]);

/** Library functions whose first type parameter needs another derived ability. */
export const ABILITY_FUNCTIONS: ReadonlyMap<string, "equality" | "to_json" | "from_json"> = new Map([
  ["list.contains", "equality"],
  ["list.index_of", "equality"],
  ["json.encode", "to_json"],
  ["json.decode", "from_json"],
  ["database.query", "from_json"],
]);
