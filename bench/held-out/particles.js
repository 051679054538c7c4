let ps = [];
for (let i = 1; i <= 2000; i++) ps.push({ x: i / 100.0, v: 0.0 });
for (let step = 1; step <= 300; step++) {
  const next = [];
  for (const p of ps) {
    const a = 0.0 - p.x;
    const v = p.v + a * 0.01;
    next.push({ x: p.x + v * 0.01, v });
  }
  ps = next;
}
let energy = 0.0;
for (const p of ps) energy = energy + p.x * p.x + p.v * p.v;
console.log(String(Math.round(energy * 1000.0)));
