// The same loop in JavaScript: the variable read directly and awaited, as the gateway's callers await it.
const read = () => {
  const value = process.env.RENYI_BENCH_VARIABLE;
  return typeof value === "string" ? { value } : undefined;
};
let found = 0;
for (let i = 0; i < 1000000; i++) {
  if ((await read()) !== undefined) found = found + 1;
  else found = found + 2;
}
console.log(String(found));
