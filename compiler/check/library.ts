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
-- A value that may be absent.
public type Optional<T> is variant
  -- No value.
  None
  -- A value.
  Some(value: T)
end

-- An HTTP response: one a request received, or one a server's handler answers.
public type Response is record
  -- The status code (200, 404, ...).
  status: Int
  -- The headers, their names in lower case.
  headers: Map<Text, Text>
  -- The body read as UTF-8 text.
  body: Text
  -- The body as it came.
  bytes: Bytes
end

-- An HTTP request a server received.
public type Request is record
  -- The method (GET, POST, ...).
  method: Text
  -- The path, without the query.
  path: Text
  -- The query's parameters.
  query: Map<Text, Text>
  -- The headers, their names in lower case.
  headers: Map<Text, Text>
  -- The body read as UTF-8 text.
  body: Text
  -- The body as it came.
  bytes: Bytes
end

-- A point in time.
public type Instant is record
  -- Milliseconds since 1970-01-01T00:00:00Z.
  milliseconds: Int
end

-- A day of the calendar.
public type Date is record
  -- The year.
  year: Int
  -- The month, 1 to 12.
  month: Int
  -- The day of the month, 1 to 31.
  day: Int
end

-- A length of time.
public type Duration is record
  -- Its length in milliseconds.
  milliseconds: Int
end

-- An open SQLite database.
public type Database is record
  -- The path it was opened at.
  path: Text
end

-- What a program run by process.run did.
public type ProcessResult is record
  -- Its exit code.
  exit_code: Int
  -- What it wrote to standard output.
  stdout: Text
  -- What it wrote to standard error.
  stderr: Text
end

-- Why an HTTP request got no response (any status is a Response).
public type HttpError is variant
  -- The grant names other hosts, not this one (or a Host header named another).
  HostNotAllowed(host: Text)
  -- The grant has no network.http at all.
  PermissionDenied(host: Text)
  -- A budget on network.http is spent.
  OverBudget(host: Text)
  -- The URL is no http or https URL.
  InvalidUrl(url: Text)
  -- No headers or body came within the time limit.
  Timeout(url: Text)
  -- The connection failed; the reason is the system's code (ECONNREFUSED).
  Unreachable(url: Text, reason: Text)
  -- The body passed the limit for data coming in.
  TooLarge(url: Text, limit: Int)
  -- A guard refused the call: it would have sent guarded data where its guard does not allow.
  Guarded(origin: Text, sink: Text)
end

-- Why a file call failed.
public type FileError is variant
  -- The grant does not cover the path, or a link takes it out of its scope.
  PermissionDenied(path: Text)
  -- A budget on the file system is spent.
  OverBudget(path: Text)
  -- Nothing is at the path.
  NotFound(path: Text)
  -- The system refused the call; the reason says why.
  Failed(path: Text, reason: Text)
  -- A guard refused the call: it would have sent guarded data where its guard does not allow.
  Guarded(origin: Text, sink: Text)
end

-- Why a database call failed.
public type DbError is variant
  -- The grant does not cover the database's path.
  PermissionDenied(path: Text)
  -- A budget on filesystem.database is spent.
  OverBudget(path: Text)
  -- SQLite refused the statement or could not run it.
  Sql(message: Text)
  -- A constraint of the database (UNIQUE, NOT NULL, ...) refused a change.
  Constraint(message: Text)
  -- A guard refused the call: it would have sent guarded data where its guard does not allow.
  Guarded(origin: Text, sink: Text)
end

-- Why a server did not start.
public type StartError is variant
  -- The grant does not cover the port, or the system refused it.
  PermissionDenied(port: Int)
  -- A budget on network.socket is spent.
  OverBudget(port: Int)
  -- Another server listens on the port.
  InUse(port: Int)
  -- The port is not from 0 to 65535.
  InvalidPort(port: Int)
  -- A guard refused the call: it would have sent guarded data where its guard does not allow.
  Guarded(origin: Text, sink: Text)
end

-- Why a program could not be run.
public type ProcessError is variant
  -- The grant does not cover the program.
  PermissionDenied(program: Text)
  -- A budget on process is spent.
  OverBudget(program: Text)
  -- No such program was found.
  NotFound(program: Text)
  -- The program could not be started or waited for; the reason says why.
  Failed(program: Text, reason: Text)
  -- A guard refused the call: it would have sent guarded data where its guard does not allow.
  Guarded(origin: Text, sink: Text)
end

-- Why a call of a foreign module failed.
public type ForeignError is variant
  -- The grant does not cover the module.
  PermissionDenied(module: Text)
  -- The module or its function failed; the reason says why.
  Failed(module: Text, reason: Text)
  -- A guard refused the call: it would have sent guarded data where its guard does not allow.
  Guarded(origin: Text, sink: Text)
end

-- Why a JSON text was not read.
public type JsonError is variant
  -- The text is not JSON; offset is where the reader stopped.
  Syntax(message: Text, offset: Int)
  -- The JSON does not fit the type: at path, expected one kind, found another.
  Shape(path: Text, expected: Text, found: Text)
end

-- Why a text was not read as a value.
public type ParseError is record
  -- The text that was read (bytes that are no UTF-8: their base64).
  text: Text
  -- What it was read as (Int, Float, UTF-8 text).
  expected: Text
end

-- The items of a query's \`group by ... into NAME\` that share a key.
public type Group<K, T> is record
  -- The key they share.
  key: K
  -- The items, in the order the query gave them.
  items: List<T>
end
`;

/** Type names that stand for another type (spec/types.md, section 1). */
export const ALIASES: ReadonlyMap<string, string> = new Map([
  ["Path", "Text"],
  ["Port", "Int"],
  ["Row", "Map<Text, Json>"],
]);

/** Each library module's functions. */
export const MODULES: Readonly<Record<string, string>> = {
  console: `
-- Writes a line to standard output.
public function print(text: Text)
  needs console
end
-- Writes a line to standard error.
public function error(text: Text)
  needs console
end
-- Reads one line from standard input; None at its end.
public function read_line() returns Optional<Text>
  needs console
end
`,
  time: `
-- The current instant.
public function now() returns Instant
  needs time
end
-- Today's date, in UTC.
public function today() returns Date
  needs time
end
-- Waits for a duration.
public function sleep(duration: Duration)
  needs time
end
-- A duration of n milliseconds.
public function milliseconds(n: Int) returns Duration
end
-- A duration of n seconds.
public function seconds(n: Int) returns Duration
end
-- A duration of n minutes.
public function minutes(n: Int) returns Duration
end
-- A duration of n hours.
public function hours(n: Int) returns Duration
end
-- The duration from one instant to a later one.
public function since(start: Instant, finish: Instant) returns Duration
end
-- The instant a duration after another.
public function add(instant: Instant, duration: Duration) returns Instant
end
-- An instant as ISO 8601 text, in UTC.
public function to_iso(instant: Instant) returns Text
end
`,
  random: `
-- A random Int from low to high, both included.
public function integer(low: Int, high: Int) returns Int
  needs random
end
-- A random Float from 0 (included) to 1 (excluded).
public function float() returns Float
  needs random
end
-- A random item of a list; None when it is empty.
public function choice<T>(items: List<T>) returns Optional<T>
  needs random
end
-- The items of a list in a random order.
public function shuffle<T>(items: List<T>) returns List<T>
  needs random
end
-- A random version 4 UUID.
public function uuid() returns Text
  needs random
end
`,
  environment: `
-- An environment variable's value; None when it is not set.
public function get(name: Text) returns Optional<Text>
  needs environment
end
`,
  http: `
-- Sends a GET request.
public function get(url: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
-- Sends a POST request with a body.
public function post(url: Text, body: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
-- Sends a PUT request with a body.
public function put(url: Text, body: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
-- Sends a PATCH request with a body.
public function patch(url: Text, body: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
-- Sends a DELETE request.
public function delete(url: Text, headers: Map<Text, Text> = {}) returns Response or fails with HttpError
  needs network.http
end
-- Sends a request with any method, body, headers and time limit.
public function request(method: Text, url: Text, body: Text = "", headers: Map<Text, Text> = {}, timeout: Optional<Duration> = None) returns Response or fails with HttpError
  needs network.http
end
`,
  server: `
-- Answers HTTP requests on a port with a handler, for ever or for a number of requests.
public function serve(port: Int, handler: function(Request) returns Response, requests: Optional<Int> = None) or fails with StartError
  needs network.socket
end
-- A response with a status, a body and headers.
public function respond(status: Int, body: Text, headers: Map<Text, Text> = {}) returns Response
end
`,
  filesystem: `
-- A file's contents as UTF-8 text.
public function read_text(path: Text) returns Text or fails with FileError
  needs filesystem.read
end
-- A file's contents as bytes.
public function read_bytes(path: Text) returns Bytes or fails with FileError
  needs filesystem.read
end
-- The names in a directory.
public function list(path: Text) returns List<Text> or fails with FileError
  needs filesystem.read
end
-- Whether a file or directory exists.
public function exists(path: Text) returns Boolean or fails with FileError
  needs filesystem.read
end
-- The size of a file in bytes.
public function size(path: Text) returns Int or fails with FileError
  needs filesystem.read
end
-- Writes a text to a file, replacing it.
public function write_text(path: Text, text: Text) or fails with FileError
  needs filesystem.write
end
-- Writes bytes to a file, replacing it.
public function write_bytes(path: Text, bytes: Bytes) or fails with FileError
  needs filesystem.write
end
-- Adds a text at the end of a file.
public function append_text(path: Text, text: Text) or fails with FileError
  needs filesystem.write
end
-- Removes a file.
public function remove(path: Text) or fails with FileError
  needs filesystem.write
end
`,
  database: `
-- Opens (or creates) an SQLite database.
public function open(path: Text) returns Database or fails with DbError
  needs filesystem.database
end
-- Runs a SELECT and reads each row as the given type.
public function query<T>(db: Database, sql: Text, parameters: List<Json> = [], as: T) returns List<T> or fails with DbError
  needs filesystem.database
end
-- Runs a statement that changes the database; the number of rows changed.
public function execute(db: Database, sql: Text, parameters: List<Json> = []) returns Int or fails with DbError
  needs filesystem.database
end
-- Runs work in a transaction: committed if it returns, rolled back if it fails, its failure passed on. A DbError of BEGIN or COMMIT is passed on into E as otherwise fail would: E is DbError, or has one case holding a DbError.
public function transaction<T, E>(db: Database, work: function(Database) returns T or fails with E) returns T or fails with E
  needs filesystem.database
end
`,
  process: `
-- Runs a program with arguments and input, and waits for it to end.
public function run(program: Text, arguments: List<Text> = [], input: Text = "") returns ProcessResult or fails with ProcessError
  needs process
end
`,
  foreign: `
-- Calls a function of a granted JavaScript module with JSON arguments.
public function call(module: Text, function: Text, arguments: List<Json> = []) returns Json or fails with ForeignError
  needs foreign
end
`,
  json: `
-- A value as JSON text.
public function encode<T>(value: T) returns Text
end
-- JSON text read as a value of the given type.
public function decode<T>(text: Text, as: T) returns T or fails with JsonError
end
-- JSON text read as a Json value.
public function parse(text: Text) returns Json or fails with JsonError
end
-- A field of a JSON object; None when absent or not an object.
public function get(value: Json, key: Text) returns Optional<Json>
end
-- An item of a JSON array; None when absent or not an array.
public function at(value: Json, index: Int) returns Optional<Json>
end
-- A Json value as JSON text.
public function to_text(value: Json) returns Text
end
-- A JSON string as a Text; None for any other kind of value.
public function as_text(value: Json) returns Optional<Text>
end
-- A JSON number without a fraction, within the range of Int, as an Int; None for anything else.
public function as_int(value: Json) returns Optional<Int>
end
-- A JSON number as a Float; None for any other kind of value.
public function as_float(value: Json) returns Optional<Float>
end
-- A JSON true or false as a Boolean; None for any other kind of value.
public function as_boolean(value: Json) returns Optional<Boolean>
end
-- The items of a JSON array; None for any other kind of value.
public function as_list(value: Json) returns Optional<List<Json>>
end
-- The keys of a JSON object, in order; an empty list for any other kind of value.
public function keys(value: Json) returns List<Text>
end
-- Whether the value is JSON null.
public function is_null(value: Json) returns Boolean
end
`,
  text: `
-- The number of characters (code points).
public function length(text: Text) returns Int
end
-- Whether the text has no characters.
public function is_empty(text: Text) returns Boolean
end
-- The text in upper case.
public function upper(text: Text) returns Text
end
-- The text in lower case.
public function lower(text: Text) returns Text
end
-- The text without white space at either end.
public function trim(text: Text) returns Text
end
-- The text without white space at its start.
public function trim_start(text: Text) returns Text
end
-- The text without white space at its end.
public function trim_end(text: Text) returns Text
end
-- The characters (code points) of a text, in order.
public function characters(text: Text) returns List<Text>
end
-- The parts between each separator; an empty separator splits into characters.
public function split(text: Text, separator: Text) returns List<Text>
end
-- The parts between the characters a function holds for, those characters dropped; empty parts kept.
public function split_where(text: Text, separator: function(Text) returns Boolean) returns List<Text>
end
-- The parts joined with a separator between each two.
public function join(parts: List<Text>, separator: Text) returns Text
end
-- The lines of a text, without their line breaks.
public function lines(text: Text) returns List<Text>
end
-- Whether a part occurs in the text.
public function contains(text: Text, part: Text) returns Boolean
end
-- Whether the text starts with a prefix.
public function starts_with(text: Text, prefix: Text) returns Boolean
end
-- Whether the text ends with a suffix.
public function ends_with(text: Text, suffix: Text) returns Boolean
end
-- The text with every occurrence of old replaced by new.
public function replace(text: Text, old: Text, new: Text) returns Text
end
-- The position (in characters) of a part's first occurrence; None when absent.
public function index_of(text: Text, part: Text) returns Optional<Int>
end
-- The characters from start up to (not including) end.
public function slice(text: Text, start: Int, end: Int) returns Text
end
-- The text repeated a number of times.
public function repeat(text: Text, times: Int) returns Text
end
-- The characters in reverse order.
public function reverse(text: Text) returns Text
end
-- The text with fill added at its start up to a width.
public function pad_start(text: Text, width: Int, fill: Text = " ") returns Text
end
-- The text with fill added at its end up to a width.
public function pad_end(text: Text, width: Int, fill: Text = " ") returns Text
end
-- Whether the text has characters and every one is a letter of any script (Unicode \`\\p{L}\`).
public function is_letter(text: Text) returns Boolean
end
-- Whether the text has characters and every one is a decimal digit of any script (Unicode \`\\p{Nd}\`).
public function is_digit(text: Text) returns Boolean
end
-- Whether the text has characters and every one is white space (Unicode \`\\p{White_Space}\`).
public function is_whitespace(text: Text) returns Boolean
end
-- A decimal Int read from a text.
public function to_int(text: Text) returns Int or fails with ParseError
end
-- A Float read from a text.
public function to_float(text: Text) returns Float or fails with ParseError
end
-- The text encoded as UTF-8 bytes.
public function to_bytes(text: Text) returns Bytes
end
-- UTF-8 bytes decoded as a text.
public function from_bytes(bytes: Bytes) returns Text or fails with ParseError
end
`,
  list: `
-- The number of items.
public function length<T>(items: List<T>) returns Int
end
-- The number of items (the same as length).
public function count<T>(items: List<T>) returns Int
end
-- Whether the list has no items.
public function is_empty<T>(items: List<T>) returns Boolean
end
-- The item at an index; None outside the list.
public function get<T>(items: List<T>, index: Int) returns Optional<T>
end
-- The first item; None when empty.
public function first<T>(items: List<T>) returns Optional<T>
end
-- The last item; None when empty.
public function last<T>(items: List<T>) returns Optional<T>
end
-- Each item transformed.
public function map<T, U>(items: List<T>, transform: function(T) returns U) returns List<U>
end
-- The items to keep, in order.
public function filter<T>(items: List<T>, keep: function(T) returns Boolean) returns List<T>
end
-- The items combined one by one, starting from initial.
public function fold<T, A>(items: List<T>, initial: A, combine: function(A, T) returns A) returns A
end
-- The first item that matches; None when none does.
public function find<T>(items: List<T>, matches: function(T) returns Boolean) returns Optional<T>
end
-- Whether some item matches.
public function any<T>(items: List<T>, matches: function(T) returns Boolean) returns Boolean
end
-- Whether every item matches.
public function all<T>(items: List<T>, matches: function(T) returns Boolean) returns Boolean
end
-- Each item transformed into a list, the lists joined.
public function flat_map<T, U>(items: List<T>, transform: function(T) returns List<U>) returns List<U>
end
-- A list of lists joined into one list.
public function flatten<T>(items: List<List<T>>) returns List<T>
end
-- The items in ascending order.
public function sort<T>(items: List<T>) returns List<T>
end
-- The items in ascending order of a key, stable.
public function sort_by<T, K>(items: List<T>, key: function(T) returns K) returns List<T>
end
-- The items in reverse order.
public function reverse<T>(items: List<T>) returns List<T>
end
-- Pairs of items at the same index, as long as the shorter list.
public function zip<A, B>(first: List<A>, second: List<B>) returns List<(A, B)>
end
-- Each item paired with its index.
public function enumerate<T>(items: List<T>) returns List<(Int, T)>
end
-- The items without repeats, in the order first seen.
public function unique<T>(items: List<T>) returns List<T>
end
-- Whether an item is in the list.
public function contains<T>(items: List<T>, item: T) returns Boolean
end
-- The index of an item's first occurrence; None when absent.
public function index_of<T>(items: List<T>, item: T) returns Optional<Int>
end
-- The list with an item added at its end.
public function append<T>(items: List<T>, item: T) returns List<T>
end
-- The first count items.
public function take<T>(items: List<T>, count: Int) returns List<T>
end
-- The items after the first count.
public function drop<T>(items: List<T>, count: Int) returns List<T>
end
-- The items from start up to (not including) end.
public function slice<T>(items: List<T>, start: Int, end: Int) returns List<T>
end
-- The items in consecutive lists of size items (the last may be shorter).
public function chunks<T>(items: List<T>, size: Int) returns List<List<T>>
end
-- The sum of Ints or Floats.
public function sum<T>(items: List<T>) returns T
end
-- The mean of Ints or Floats; None when empty.
public function average<T>(items: List<T>) returns Optional<Float>
end
-- The smallest item; None when empty.
public function min<T>(items: List<T>) returns Optional<T>
end
-- The largest item; None when empty.
public function max<T>(items: List<T>) returns Optional<T>
end
-- The items as a set.
public function to_set<T>(items: List<T>) returns Set<T>
end
-- Pairs of key and value as a map; a later key wins.
public function to_map<K, V>(entries: List<(K, V)>) returns Map<K, V>
end
-- The Ints from start up to (not including) finish.
public function range(start: Int, finish: Int) returns List<Int>
end
`,
  map: `
-- The value at a key; None when absent.
public function get<K, V>(map: Map<K, V>, key: K) returns Optional<V>
end
-- Whether a key is in the map.
public function contains<K, V>(map: Map<K, V>, key: K) returns Boolean
end
-- The map with a key set to a value.
public function put<K, V>(map: Map<K, V>, key: K, value: V) returns Map<K, V>
end
-- The map without a key.
public function remove<K, V>(map: Map<K, V>, key: K) returns Map<K, V>
end
-- The keys, in insertion order.
public function keys<K, V>(map: Map<K, V>) returns List<K>
end
-- The values, in insertion order of their keys.
public function values<K, V>(map: Map<K, V>) returns List<V>
end
-- Pairs of key and value, in insertion order.
public function entries<K, V>(map: Map<K, V>) returns List<(K, V)>
end
-- The number of keys.
public function length<K, V>(map: Map<K, V>) returns Int
end
-- Whether the map has no keys.
public function is_empty<K, V>(map: Map<K, V>) returns Boolean
end
-- Both maps' entries; the second wins on a shared key.
public function merge<K, V>(first: Map<K, V>, second: Map<K, V>) returns Map<K, V>
end
`,
  sets: `
-- Whether an item is in the set.
public function contains<T>(set: Set<T>, item: T) returns Boolean
end
-- The set with an item added.
public function add<T>(set: Set<T>, item: T) returns Set<T>
end
-- The set without an item.
public function remove<T>(set: Set<T>, item: T) returns Set<T>
end
-- The number of items.
public function length<T>(set: Set<T>) returns Int
end
-- Whether the set has no items.
public function is_empty<T>(set: Set<T>) returns Boolean
end
-- The items as a list, in insertion order.
public function to_list<T>(set: Set<T>) returns List<T>
end
-- The items in either set.
public function union<T>(first: Set<T>, second: Set<T>) returns Set<T>
end
-- The items in both sets.
public function intersection<T>(first: Set<T>, second: Set<T>) returns Set<T>
end
-- The items in the first set and not in the second.
public function difference<T>(first: Set<T>, second: Set<T>) returns Set<T>
end
`,
  optional: `
-- The value if there is one, else the fallback.
public function or_else<T>(value: Optional<T>, fallback: T) returns T
end
-- Whether there is a value.
public function is_some<T>(value: Optional<T>) returns Boolean
end
-- Whether there is no value.
public function is_none<T>(value: Optional<T>) returns Boolean
end
-- The value transformed, if there is one.
public function map<T, U>(value: Optional<T>, transform: function(T) returns U) returns Optional<U>
end
-- The Optional a function gives for the value, if there is one; None when there is none.
public function and_then<T, U>(value: Optional<T>, transform: function(T) returns Optional<U>) returns Optional<U>
end
-- A list of the value, or an empty list.
public function to_list<T>(value: Optional<T>) returns List<T>
end
`,
  bytes: `
-- The number of bytes.
public function length(bytes: Bytes) returns Int
end
`,
  math: `
-- The absolute value of an Int or Float.
public function abs<T>(n: T) returns T
end
-- The smaller of two numbers.
public function min<T>(a: T, b: T) returns T
end
-- The larger of two numbers.
public function max<T>(a: T, b: T) returns T
end
-- The nearest Int, half away from zero.
public function round(x: Float) returns Int
end
-- The largest Int not above x.
public function floor(x: Float) returns Int
end
-- The smallest Int not below x.
public function ceil(x: Float) returns Int
end
-- The square root.
public function sqrt(x: Float) returns Float
end
-- x raised to a power.
public function pow(x: Float, exponent: Float) returns Float
end
-- x as decimal text with exactly that many decimals (0 to 100), rounded half away from zero.
public function format(x: Float, decimals: Int) returns Text
end
-- An Int as a Float.
public function to_float(n: Int) returns Float
end
-- The number pi.
public function pi() returns Float
end
`,
};

/** The module whose functions a value's methods are (spec/types.md, section 1, "Methods"). */
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
  ["Bytes", "bytes"],
]);

/** Library functions restricted to Int or Float, at their first type parameter. */
export const NUMERIC_FUNCTIONS: ReadonlySet<string> = new Set([
  "list.sum",
  "list.average",
  "math.abs",
  "math.min",
  "math.max",
]);

/** Library functions whose items must be comparable. */
export const COMPARING_FUNCTIONS: ReadonlySet<string> = new Set([
  "list.sort",
  "list.sort_by",
  "list.min",
  "list.max",
  "math.min",
  "math.max",
]);

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
