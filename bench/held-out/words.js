const vocabulary = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda"];
const parts = [];
for (let i = 1; i <= 600000; i++) parts.push(vocabulary[(i * 7 + Math.trunc(i / 13)) % 11]);
const words = parts.join(" ").split(" ");
const counts = new Map();
for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
let checksum = 0;
for (const key of counts.keys()) checksum = checksum + key.length * (counts.get(key) ?? 0);
console.log(`${counts.size} ${checksum}`);
