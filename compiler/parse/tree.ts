// The syntax tree: what the parser builds and the checker reads. One node type
// per construct, a `kind` to tell them apart, and a span on every node. The
// checker builds its own tree from this one and never annotates it.

import type { Span } from "../source.js";

export interface Ident {
  readonly kind: "Ident";
  readonly name: string;
  readonly span: Span;
}

// ---- definitions -----------------------------------------------------------

export interface Module {
  readonly kind: "Module";
  readonly file: string;
  readonly items: Item[];
  readonly span: Span;
}

export type Item = Use | TypeDef | FunctionDef | TestDef;

/** `use lib.weather as w` */
export interface Use {
  readonly kind: "Use";
  readonly path: Ident[];
  readonly alias?: Ident;
  readonly span: Span;
}

export interface Purpose {
  readonly kind: "Purpose";
  readonly text: string;
  readonly span: Span;
}

/** `[public] type Name<T> is record ... end` or `... is variant ... end` */
export interface TypeDef {
  readonly kind: "TypeDef";
  readonly public: boolean;
  readonly name: Ident;
  readonly typeParams: Ident[];
  readonly purpose?: Purpose;
  readonly body: RecordBody | VariantBody;
  readonly span: Span;
}

interface RecordBody {
  readonly kind: "RecordBody";
  readonly fields: FieldDecl[];
  readonly span: Span;
}

interface VariantBody {
  readonly kind: "VariantBody";
  readonly cases: CaseDecl[];
  readonly span: Span;
}

/** `name: Type [from json "key"]` */
export interface FieldDecl {
  readonly kind: "FieldDecl";
  readonly name: Ident;
  readonly type: TypeExpr;
  readonly jsonKey?: TextLiteralValue;
  readonly span: Span;
}

/** `Circle(radius: Float)` or a bare `Empty` */
export interface CaseDecl {
  readonly kind: "CaseDecl";
  readonly name: Ident;
  readonly fields: FieldDecl[];
  readonly span: Span;
}

/** A text literal without interpolation, where the grammar needs one (`from json`, test names, scopes). */
export interface TextLiteralValue {
  readonly kind: "TextLiteralValue";
  readonly value: string;
  readonly span: Span;
}

export interface FunctionDef {
  readonly kind: "FunctionDef";
  readonly public: boolean;
  readonly name: Ident;
  readonly typeParams: Ident[];
  readonly params: Param[];
  readonly returns?: TypeExpr;
  readonly fails?: TypeExpr;
  readonly purpose?: Purpose;
  readonly needs?: Needs;
  readonly body: Block;
  readonly span: Span;
}

/** `name: Type [= default]` */
export interface Param {
  readonly kind: "Param";
  readonly name: Ident;
  readonly type: TypeExpr;
  readonly default?: Expr;
  readonly span: Span;
}

/** `test "name" [needs ...] [replays "path" [calls N to M] [unused CAP, ...]] ... end` */
export interface TestDef {
  readonly kind: "TestDef";
  readonly name: TextLiteralValue;
  readonly needs?: Needs;
  readonly replays?: TextLiteralValue;
  /** `calls 1 to 3`: only these entries of the recording are the test's. */
  readonly calls?: CallRange;
  /** `unused console, time`: capabilities whose entries the test may leave unused under `--strict`. */
  readonly unused?: UnusedCalls;
  readonly body: Block;
  readonly span: Span;
}

/** `calls 1 to 3`: the first and last sequence numbers of a part of a recording. */
export interface CallRange {
  readonly kind: "CallRange";
  readonly first: IntLiteral;
  readonly last: IntLiteral;
  readonly span: Span;
}

/** `unused console, environment("KEY")` */
export interface UnusedCalls {
  readonly kind: "UnusedCalls";
  readonly items: CapabilityRef[];
  readonly span: Span;
}

/** `needs item, item, ...` */
export interface Needs {
  readonly kind: "Needs";
  readonly items: GrantItem[];
  readonly span: Span;
}

/** `network.http("api.example.com") at most 60 per minute only to console or filesystem.write` */
export interface GrantItem {
  readonly kind: "GrantItem";
  readonly capability: CapabilityRef;
  readonly budget?: Budget;
  readonly guard?: Guard;
  readonly span: Span;
}

/** A capability and its optional scope: `console`, `network.http("api.example.com")`, `network.socket(8080)`. */
export interface CapabilityRef {
  readonly kind: "CapabilityRef";
  readonly path: Ident[];
  readonly scope?: ScopeLiteral;
  readonly span: Span;
}

export type ScopeLiteral = TextLiteralValue | IntLiteral;

/** `at most 60 per minute` */
export interface Budget {
  readonly kind: "Budget";
  readonly count: IntLiteral;
  readonly unit: Ident;
  readonly span: Span;
}

/** `only to console or network.http("api.example.com")` */
export interface Guard {
  readonly kind: "Guard";
  readonly sinks: CapabilityRef[];
  readonly span: Span;
}

// ---- types -------------------------------------------------------------------

export type TypeExpr = NamedType | PairType | FunctionType;

/** `Int`, `List<Text>`, `weather.Forecast` */
export interface NamedType {
  readonly kind: "NamedType";
  readonly path: Ident[];
  readonly args: TypeExpr[];
  readonly span: Span;
}

/** `(A, B)` */
interface PairType {
  readonly kind: "PairType";
  readonly first: TypeExpr;
  readonly second: TypeExpr;
  readonly span: Span;
}

/** `function(A, B) returns C or fails with E needs console` */
interface FunctionType {
  readonly kind: "FunctionType";
  readonly params: TypeExpr[];
  readonly returns?: TypeExpr;
  readonly fails?: TypeExpr;
  readonly needs?: Needs;
  readonly span: Span;
}

// ---- statements ----------------------------------------------------------------

export interface Block {
  readonly kind: "Block";
  readonly statements: Statement[];
  readonly span: Span;
}

export type Statement =
  | Let
  | Var
  | SetStatement
  | If
  | ForEach
  | While
  | Stop
  | Skip
  | Return
  | Fail
  | Crash
  | Check
  | CheckFails
  | RunConcurrently
  | ExprStatement;

/** `let name be value`, `let (a, b) be pair`, `let name: Type be value` */
interface Let {
  readonly kind: "Let";
  readonly pattern: Pattern;
  readonly type?: TypeExpr;
  readonly value: Expr;
  readonly span: Span;
}

/** `var name be value` */
interface Var {
  readonly kind: "Var";
  readonly name: Ident;
  readonly type?: TypeExpr;
  readonly value: Expr;
  readonly span: Span;
}

/** `set name to value` */
export interface SetStatement {
  readonly kind: "Set";
  readonly name: Ident;
  readonly value: Expr;
  readonly span: Span;
}

/** `if c ... else if c ... else ... end`, or on one line `if c then STATEMENT [else STATEMENT]` */
interface If {
  readonly kind: "If";
  readonly branches: IfBranch[];
  readonly elseBody?: Block;
  readonly inline: boolean;
  readonly span: Span;
}

export interface IfBranch {
  readonly kind: "IfBranch";
  readonly condition: Expr;
  readonly body: Block;
  readonly span: Span;
}

/** `for each pattern in iterable ... end` */
export interface ForEach {
  readonly kind: "ForEach";
  readonly pattern: Pattern;
  readonly iterable: Expr;
  readonly body: Block;
  readonly span: Span;
}

interface While {
  readonly kind: "While";
  readonly condition: Expr;
  readonly body: Block;
  readonly span: Span;
}

interface Stop {
  readonly kind: "Stop";
  readonly span: Span;
}

interface Skip {
  readonly kind: "Skip";
  readonly span: Span;
}

export interface Return {
  readonly kind: "Return";
  readonly value?: Expr;
  readonly span: Span;
}

/** `fail with value`, or a bare `fail` that passes on the failure being handled */
export interface Fail {
  readonly kind: "Fail";
  readonly value?: Expr;
  readonly span: Span;
}

/** `crash with message` */
interface Crash {
  readonly kind: "Crash";
  readonly message: Expr;
  readonly span: Span;
}

/** `check condition` (also `check a is b`) */
interface Check {
  readonly kind: "Check";
  readonly condition: Expr;
  readonly span: Span;
}

/** `check expr fails with pattern` */
export interface CheckFails {
  readonly kind: "CheckFails";
  readonly expr: Expr;
  readonly pattern: Pattern;
  readonly span: Span;
}

/** `run concurrently ... end` */
export interface RunConcurrently {
  readonly kind: "RunConcurrently";
  readonly body: Block;
  readonly span: Span;
}

interface ExprStatement {
  readonly kind: "ExprStatement";
  readonly expr: Expr;
  readonly span: Span;
}

// ---- expressions -----------------------------------------------------------------

export type Expr =
  | IntLiteral
  | FloatLiteral
  | TextLiteral
  | BooleanLiteral
  | NothingLiteral
  | Name
  | UpperName
  | Member
  | Call
  | Index
  | With
  | Unary
  | Binary
  | Otherwise
  | ListLiteral
  | MapLiteral
  | PairLiteral
  | Lambda
  | FunctionExpr
  | IfExpr
  | Match
  | Query
  | TypeArgument
  | ErrorExpr;

export interface IntLiteral {
  readonly kind: "IntLiteral";
  readonly value: number;
  readonly span: Span;
}

interface FloatLiteral {
  readonly kind: "FloatLiteral";
  readonly value: number;
  readonly span: Span;
}

/** A text, its literal chunks and interpolated expressions in order. */
export interface TextLiteral {
  readonly kind: "TextLiteral";
  readonly parts: (TextChunk | Expr)[];
  readonly span: Span;
}

export interface TextChunk {
  readonly kind: "TextChunk";
  readonly value: string;
  readonly span: Span;
}

interface BooleanLiteral {
  readonly kind: "BooleanLiteral";
  readonly value: boolean;
  readonly span: Span;
}

interface NothingLiteral {
  readonly kind: "NothingLiteral";
  readonly span: Span;
}

/** A lower-case name: a local, a parameter, a function, a module. */
export interface Name {
  readonly kind: "Name";
  readonly name: string;
  readonly span: Span;
}

/** A capitalised name: a type, a record constructor, `Some`, `None`. */
export interface UpperName {
  readonly kind: "UpperName";
  readonly name: string;
  readonly span: Span;
}

/** `object.name`: a field, a method, a module's member or a variant case. */
export interface Member {
  readonly kind: "Member";
  readonly object: Expr;
  readonly name: Ident;
  readonly span: Span;
}

export interface Call {
  readonly kind: "Call";
  readonly callee: Expr;
  readonly args: Argument[];
  readonly span: Span;
}

/** A positional (`label` absent) or named argument. */
export interface Argument {
  readonly kind: "Argument";
  readonly label?: Ident;
  readonly value: Expr;
  readonly span: Span;
}

/** The type after `as:` in an argument list: `json.decode(body, as: List<Job>)`. */
interface TypeArgument {
  readonly kind: "TypeArgument";
  readonly type: TypeExpr;
  readonly span: Span;
}

export interface Index {
  readonly kind: "Index";
  readonly object: Expr;
  readonly index: Expr;
  readonly span: Span;
}

/** `record with name: value, name: value` */
export interface With {
  readonly kind: "With";
  readonly record: Expr;
  readonly updates: FieldUpdate[];
  readonly span: Span;
}

export interface FieldUpdate {
  readonly kind: "FieldUpdate";
  readonly name: Ident;
  readonly value: Expr;
  readonly span: Span;
}

type UnaryOperator = "-" | "not";

export interface Unary {
  readonly kind: "Unary";
  readonly op: UnaryOperator;
  readonly operand: Expr;
  readonly span: Span;
}

export type BinaryOperator =
  | "or"
  | "and"
  | "is"
  | "is not"
  | "<"
  | "<="
  | ">"
  | ">="
  | "to"
  | "until"
  | "+"
  | "-"
  | "*"
  | "/"
  | "mod";

export interface Binary {
  readonly kind: "Binary";
  readonly op: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
  readonly span: Span;
}

/** `expr otherwise HANDLER` */
export interface Otherwise {
  readonly kind: "Otherwise";
  readonly expr: Expr;
  readonly handler: OtherwiseHandler;
  readonly span: Span;
}

export type OtherwiseHandler = OtherwiseFail | OtherwiseDefault | OtherwiseLeave | OtherwiseArms;

/** `otherwise fail` or `otherwise fail with value` */
interface OtherwiseFail {
  readonly kind: "OtherwiseFail";
  readonly value?: Expr;
  readonly span: Span;
}

/** `otherwise value` */
interface OtherwiseDefault {
  readonly kind: "OtherwiseDefault";
  readonly value: Expr;
  readonly span: Span;
}

/** `otherwise return x`, `otherwise skip`, `otherwise stop`, `otherwise crash with m` */
interface OtherwiseLeave {
  readonly kind: "OtherwiseLeave";
  readonly statement: Return | Stop | Skip | Crash;
  readonly span: Span;
}

/** `otherwise` then `when pattern ...` arms, then `end` */
interface OtherwiseArms {
  readonly kind: "OtherwiseArms";
  readonly arms: MatchArm[];
  readonly span: Span;
}

export interface ListLiteral {
  readonly kind: "ListLiteral";
  readonly items: Expr[];
  readonly span: Span;
}

export interface MapLiteral {
  readonly kind: "MapLiteral";
  readonly entries: MapEntry[];
  readonly span: Span;
}

export interface MapEntry {
  readonly kind: "MapEntry";
  readonly key: Expr;
  readonly value: Expr;
  readonly span: Span;
}

interface PairLiteral {
  readonly kind: "PairLiteral";
  readonly first: Expr;
  readonly second: Expr;
  readonly span: Span;
}

/** `(x) => x * 2`, `(a: Int, b: Int) => a + b` */
export interface Lambda {
  readonly kind: "Lambda";
  readonly params: LambdaParam[];
  readonly body: Expr;
  readonly span: Span;
}

export interface LambdaParam {
  readonly kind: "LambdaParam";
  readonly name: Ident;
  readonly type?: TypeExpr;
  readonly span: Span;
}

/** `function (request: Request) returns Response ... end` as a value */
export interface FunctionExpr {
  readonly kind: "FunctionExpr";
  readonly params: Param[];
  readonly returns?: TypeExpr;
  readonly fails?: TypeExpr;
  readonly needs?: Needs;
  readonly body: Block;
  readonly span: Span;
}

/** `if c then a else b` */
interface IfExpr {
  readonly kind: "IfExpr";
  readonly condition: Expr;
  readonly then: Expr;
  readonly else: Expr;
  readonly span: Span;
}

/** `match subject` arms `end`, as a statement or a value */
export interface Match {
  readonly kind: "Match";
  readonly subject: Expr;
  readonly arms: MatchArm[];
  readonly span: Span;
}

/** `when pattern then STATEMENT` (inline) or `when pattern` and a block */
export interface MatchArm {
  readonly kind: "MatchArm";
  readonly pattern: Pattern;
  readonly body: Block;
  readonly inline: boolean;
  readonly span: Span;
}

/** `from x in xs where ... select ...` */
export interface Query {
  readonly kind: "Query";
  readonly clauses: QueryClause[];
  readonly concurrently?: Concurrently;
  readonly select: Select;
  readonly span: Span;
}

export type QueryClause = FromClause | WhereClause | LetClause | SortClause | GroupClause | TakeClause | DropClause;

interface FromClause {
  readonly kind: "FromClause";
  readonly pattern: Pattern;
  readonly source: Expr;
  readonly span: Span;
}

interface WhereClause {
  readonly kind: "WhereClause";
  readonly condition: Expr;
  readonly span: Span;
}

interface LetClause {
  readonly kind: "LetClause";
  readonly name: Ident;
  readonly value: Expr;
  readonly span: Span;
}

export interface SortClause {
  readonly kind: "SortClause";
  readonly keys: SortKey[];
  readonly span: Span;
}

export interface SortKey {
  readonly kind: "SortKey";
  readonly value: Expr;
  readonly descending: boolean;
  readonly span: Span;
}

interface GroupClause {
  readonly kind: "GroupClause";
  readonly key: Expr;
  readonly into: Ident;
  readonly span: Span;
}

interface TakeClause {
  readonly kind: "TakeClause";
  readonly count: Expr;
  readonly span: Span;
}

interface DropClause {
  readonly kind: "DropClause";
  readonly count: Expr;
  readonly span: Span;
}

/** `concurrently [at most N at a time]` before `select` */
export interface Concurrently {
  readonly kind: "Concurrently";
  readonly limit?: IntLiteral;
  readonly span: Span;
}

export interface Select {
  readonly kind: "Select";
  readonly distinct: boolean;
  readonly value: Expr;
  readonly span: Span;
}

/** Stands where the parser could not read an expression; a tree with one never reaches the checker. */
interface ErrorExpr {
  readonly kind: "ErrorExpr";
  readonly span: Span;
}

// ---- patterns ----------------------------------------------------------------------

export type Pattern = WildcardPattern | BindPattern | LiteralPattern | CasePattern | PairPattern | ListPattern;

interface WildcardPattern {
  readonly kind: "WildcardPattern";
  readonly span: Span;
}

interface BindPattern {
  readonly kind: "BindPattern";
  readonly name: Ident;
  readonly span: Span;
}

export interface LiteralPattern {
  readonly kind: "LiteralPattern";
  readonly value: IntLiteral | FloatLiteral | TextLiteral | BooleanLiteral | NothingLiteral;
  readonly span: Span;
}

/** `None`, `Some(x)`, `Shape.Circle(radius)`, `Shape.Circle(radius: r)` */
export interface CasePattern {
  readonly kind: "CasePattern";
  readonly path: Ident[];
  readonly args: PatternArg[];
  readonly span: Span;
}

export interface PatternArg {
  readonly kind: "PatternArg";
  readonly label?: Ident;
  readonly pattern: Pattern;
  readonly span: Span;
}

interface PairPattern {
  readonly kind: "PairPattern";
  readonly first: Pattern;
  readonly second: Pattern;
  readonly span: Span;
}

/** `[]`, `[a, b]`, `[first, ...rest]` */
export interface ListPattern {
  readonly kind: "ListPattern";
  readonly items: Pattern[];
  readonly rest?: RestPattern;
  readonly span: Span;
}

/** `...rest` or `..._` */
export interface RestPattern {
  readonly kind: "RestPattern";
  readonly name?: Ident;
  readonly span: Span;
}
