class Order {
  constructor(id, customer, amount) {
    this.id = id;
    this.customer = customer;
    this.amount = amount;
  }
}
const customers = ["ann", "bob", "cid", "dee", "eve"];
const orders = [];
for (let i = 1; i <= 200000; i++) orders.push(new Order(i, customers[i % 5], ((i * 37) % 1000) / 10.0));
let checksum = 0;
for (let round = 1; round <= 5; round++) {
  const big = orders
    .filter((o) => o.amount > 50.0)
    .sort((a, b) => b.amount - a.amount || a.id - b.id)
    .map((o) => o.id);
  const groups = new Map();
  for (const o of orders) {
    const g = groups.get(o.customer);
    if (g === undefined) groups.set(o.customer, [o]);
    else g.push(o);
  }
  const counts = [...groups.values()].map((g) => g.length);
  checksum = checksum + big[0] + counts.length + round;
}
console.log(String(checksum));
