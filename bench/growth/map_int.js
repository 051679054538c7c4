const n = Number(process.argv[process.argv.indexOf("--n") + 1] ?? 1000000);
const m = new Map([[0, 0]]);
for (let i = 1; i <= n; i++) m.set(i, i * 2);
let total = 0;
for (let i = 1; i <= n; i++) total += m.get(i) ?? 0;
console.log(`${m.size} ${total}`);
