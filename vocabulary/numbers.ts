// A whole number with its thousands grouped, as `(1234567).toLocaleString("en")`
// writes it ("1,234,567"), without the engine's locale data: its first use
// loads it, about 15 ms, which the usage tables of `renyi run` and `renyi
// test` paid on every start.

export function grouped(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString("en");
  const digits = String(Math.abs(value));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return value < 0 ? `-${out}` : out;
}
