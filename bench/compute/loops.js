let total = 0;
let i = 0;
while (i < 30000000) {
  total = total + ((i * i) % 7);
  i = i + 1;
}
console.log(String(total));
