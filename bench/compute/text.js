let total = 0;
for (let round = 1; round <= 10; round++) {
  const parts = [];
  for (let i = 1; i <= 100000; i++) parts.push(`${i}:${i * 2}`);
  const joined = parts.join(",");
  const back = joined.split(",");
  total = total + [...joined].length + back.length + round;
}
console.log(String(total));
