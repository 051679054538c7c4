// Every error a run can end with (E-RT-*): the catalogue's run-time rows. The
// runtime imports this file alone, not the compile-time rows.

import { problem, type FactsOf } from "./entry.js";

export const RUN_PROBLEMS = {
  "E-RT-DIVISION": problem<{ left: string; operator: "/" | "mod" }>({
    title: "Division by zero",
    facts: { left: "the number divided", operator: "`/` or `mod`" },
    render: (f) => ({ message: `${f.left} ${f.operator} 0: division by zero` }),
    explanation: `Dividing an Int by zero, or taking it \`mod\` zero, has no answer, and the run
crashes rather than go on with a made-up number. Check the divisor first, or divide Floats,
where \`1.0 / 0.0\` is infinity.`,
    wrong: `public function main(count: Int = 0)
  purpose: Print the share of each.
  needs console
  console.print((100 / count).to_text())
end`,
    right: `public function main(count: Int = 0)
  purpose: Print the share of each.
  needs console
  if count is 0 then
    console.print("nobody to share with")
  else
    console.print((100 / count).to_text())
  end
end`,
  }),
};

export type RunCode = keyof typeof RUN_PROBLEMS;

/** The facts a runtime error carries. */
export type RunFacts<C extends RunCode> = FactsOf<(typeof RUN_PROBLEMS)[C]>;

/** The message of a runtime error, made from its facts. */
export function runMessage<C extends RunCode>(code: C, facts: RunFacts<C>): string {
  return (RUN_PROBLEMS[code].render as (f: RunFacts<C>) => { message: string })(facts).message;
}
