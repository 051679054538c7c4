function steps(start) {
  let n = start;
  let count = 0;
  while (n !== 1) {
    if (n % 2 === 0) n = Math.trunc(n / 2);
    else n = 3 * n + 1;
    count = count + 1;
  }
  return count;
}
let best = 0;
let at = 0;
for (let i = 1; i <= 300000; i++) {
  const s = steps(i);
  if (s > best) {
    best = s;
    at = i;
  }
}
console.log(`${at} ${best}`);
