const n = Number(process.argv[process.argv.indexOf("--n") + 1] ?? 100000);
const acc = { items: [], sum: 0 };
for (let i = 1; i <= n; i++) {
  acc.items.push(i);
  acc.sum += i;
}
console.log(`${acc.items.length} ${acc.sum}`);
