function lastOrZero(items) {
  return items.length === 0 ? 0 : items[items.length - 1];
}
const n = Number(process.argv[process.argv.indexOf("--n") + 1] ?? 100000);
const items = [];
let total = 0;
for (let i = 1; i <= n; i++) {
  items.push(i);
  total += lastOrZero(items);
}
console.log(`${items.length} ${total}`);
