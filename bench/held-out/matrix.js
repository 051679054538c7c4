function product(a, b, n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const row = [];
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum = sum + a[i][k] * b[k][j];
      row.push(sum % 1000);
    }
    rows.push(row);
  }
  return rows;
}
const n = 120;
const a = [];
for (let i = 0; i < n; i++) {
  const row = [];
  for (let j = 0; j < n; j++) row.push((i * 31 + j * 17 + 3) % 10);
  a.push(row);
}
let m = a;
for (let round = 1; round <= 3; round++) m = product(m, a, n);
let checksum = 0;
for (const row of m) for (const x of row) checksum = checksum + x;
console.log(String(checksum));
