// Programs written to make the compiler's work grow faster than their size,
// each a family with a size n: what tests/compile-bounds-property.test.ts and
// bench/compile-growth.ts compile at n and 2n and compare. Each is the shape
// of an attack on one pass: types shared many times over (nested pairs, a
// generic record of itself, a generic function applied to its own result),
// long chains of branches, wide matches and deep graphs of modules.

import { parseSource } from "../compiler/index.js";
import type { Diagnostic } from "../compiler/diagnostics.js";
import type { Module } from "../compiler/parse/tree.js";

export interface SourceText {
  readonly name: string;
  readonly text: string;
}

export interface Family {
  readonly name: string;
  /** The sizes it is measured at by default: n here, 2n beside it. */
  readonly n: number;
  /** The program of size n; the first module is the entry. */
  readonly make: (n: number) => SourceText[];
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** `let a1 be (a0, a0)` n times: a type of n distinct parts and 2^n as a tree. */
function nestedPairs(n: number, ending: string): string {
  const lets = range(n)
    .map((i) => `  let a${i} be (a${i - 1}, a${i - 1})`)
    .join("\n");
  return `function main()\n  needs console\n  let a0 be 1\n${lets}\n${ending.replace(/LAST/g, `a${n}`)}\nend\n`;
}

export const FAMILIES: readonly Family[] = [
  {
    name: "nested pairs compared",
    n: 20,
    make: (n) => [{ name: "main", text: nestedPairs(n, `  if LAST is LAST\n    console.print("same")\n  end`) }],
  },
  {
    name: "nested pairs in a type error",
    n: 20,
    make: (n) => [{ name: "main", text: nestedPairs(n, "  console.print(LAST + 1)") }],
  },
  {
    name: "nested pairs written as text and JSON",
    n: 20,
    make: (n) => [{ name: "main", text: nestedPairs(n, '  console.print("{LAST} {json.encode(LAST)}")') }],
  },
  {
    name: "nested lists",
    n: 20,
    make: (n) => [
      {
        name: "main",
        text: `function main()\n  needs console\n  let a0 be 1\n${range(n)
          .map((i) => `  let a${i} be [a${i - 1}, a${i - 1}]`)
          .join("\n")}\n  if a${n} is a${n}\n    console.print("{a${n}}")\n  end\nend\n`,
      },
    ],
  },
  {
    name: "records of records",
    n: 20,
    make: (n) => [
      {
        name: "main",
        text: `type Two<T> is record\n  left: T\n  right: T\nend\n\nfunction main()\n  needs console\n  let a0 be 1\n${range(
          n,
        )
          .map((i) => `  let a${i} be Two(left: a${i - 1}, right: a${i - 1})`)
          .join("\n")}\n  if a${n} is a${n}\n    console.print("{json.encode(a${n})}")\n  end\nend\n`,
      },
    ],
  },
  {
    name: "generic instantiation chain",
    n: 20,
    make: (n) => [
      {
        name: "main",
        text: `function twice<T>(x: T) returns (T, T)\n  return (x, x)\nend\n\nfunction main()\n  needs console\n  let a0 be 1\n${range(
          n,
        )
          .map((i) => `  let a${i} be twice(a${i - 1})`)
          .join("\n")}\n  if a${n} is a${n}\n    console.print("{a${n}}")\n  end\nend\n`,
      },
    ],
  },
  {
    name: "nested pairs inside a generic function",
    n: 20,
    make: (n) => [
      {
        name: "main",
        text: `function show<T>(x: T) returns Text\n${range(n)
          .map((i) => `  let a${i} be (${i === 1 ? "x" : `a${i - 1}`}, ${i === 1 ? "x" : `a${i - 1}`})`)
          .join(
            "\n",
          )}\n  return "{a${n}} {json.encode(a${n})}"\nend\n\nfunction main()\n  needs console\n  console.print(show(1))\nend\n`,
      },
    ],
  },
  {
    name: "long else-if chain",
    n: 200,
    make: (n) => [
      {
        name: "main",
        text: `function pick(x: Int) returns Int\n  if x is 0\n    return 0\n${range(n)
          .map((i) => `  else if x is ${i}\n    return ${i}`)
          .join(
            "\n",
          )}\n  end\n  return -1\nend\n\nfunction main()\n  needs console\n  console.print("{pick(3)}")\nend\n`,
      },
    ],
  },
  {
    name: "wide match",
    n: 200,
    make: (n) => [
      {
        name: "main",
        text: `type Many is variant\n${range(n)
          .map((i) => `  C${i}(value: Int)`)
          .join("\n")}\nend\n\nfunction pick(m: Many) returns Int\n  return match m\n${range(n)
          .map((i) => `    when Many.C${i}(value) then value + ${i}`)
          .join(
            "\n",
          )}\n  end\nend\n\nfunction main()\n  needs console\n  console.print("{pick(Many.C1(value: 2))}")\nend\n`,
      },
    ],
  },
  {
    name: "deep use graph (each level used twice)",
    n: 20,
    make: (n) => {
      // m_i uses l_i and r_i, which both use m_(i-1): 2^n paths from the entry to m_0.
      const modules: SourceText[] = [
        {
          name: "main",
          text: `use m${n}\n\nfunction main()\n  needs console\n  console.print("{m${n}.value()}")\nend\n`,
        },
      ];
      const fn = (body: string) => `public function value() returns (Int, Int)\n  purpose: A value.\n  ${body}\nend\n`;
      modules.push({ name: "m0", text: fn("return (1, 2)") });
      for (const i of range(n)) {
        for (const side of ["l", "r"])
          modules.push({ name: `${side}${i}`, text: `use m${i - 1}\n\n${fn(`return m${i - 1}.value()`)}` });
        modules.push({
          name: `m${i}`,
          text: `use l${i}\nuse r${i}\n\n${fn(`let other be r${i}.value()\n  return l${i}.value()`)}`,
        });
      }
      return modules;
    },
  },
];

export interface ParsedSource {
  name: string;
  file: string;
  text: string;
  syntax: Module;
  syntaxDiagnostics: Diagnostic[];
}

export function parsed(sources: readonly SourceText[]): ParsedSource[] {
  return sources.map((s) => {
    const file = `${s.name}.ry`;
    const result = parseSource(file, s.text);
    return { name: s.name, file, text: s.text, syntax: result.module, syntaxDiagnostics: result.diagnostics };
  });
}

/**
 * A variant of `cases` cases and a match naming the first `arms` of them, with `when _` for the rest: a wide match in
 * its plainest form.
 */
export function wideMatch(cases: number, arms: number): string {
  const numbers = Array.from({ length: cases }, (_, i) => i + 1);
  return [
    "type Many is variant",
    ...numbers.map((i) => `  C${i}(value: Int)`),
    "end",
    "",
    "function pick(m: Many) returns Int",
    "  return match m",
    ...numbers.slice(0, arms).map((i) => `    when Many.C${i}(value) then value + ${i}`),
    ...(arms < cases ? ["    when _ then 0"] : []),
    "  end",
    "end",
    "",
  ].join("\n");
}
