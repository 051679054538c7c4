function tak(x, y, z) {
  if (y >= x) return z;
  return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
}
let total = 0;
for (let i = 1; i <= 6; i++) total = total + tak(22 + i, 14, 6);
console.log(String(total));
