const items = [];
for (let i = 1; i <= 50000; i++) items.push({ id: i, name: `item ${i}`, price: (i % 100) + 0.5, tags: ["a", "b"] });
let total = 0;
for (let round = 1; round <= 5; round++) {
  const encoded = JSON.stringify(items);
  const decoded = JSON.parse(encoded).map((x) => {
    if (typeof x.id !== "number" || typeof x.name !== "string" || typeof x.price !== "number" || !Array.isArray(x.tags))
      throw new Error("shape");
    return { id: x.id, name: x.name, price: x.price, tags: x.tags.map((t) => String(t)) };
  });
  total = total + [...encoded].length + decoded.length;
}
console.log(String(total));
