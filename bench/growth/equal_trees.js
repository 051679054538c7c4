const n = Number(process.argv[process.argv.indexOf("--n") + 1] ?? 1048576);
class Leaf {
  constructor(value) {
    this.value = value;
  }
}
class Node {
  constructor(left, right) {
    this.left = left;
    this.right = right;
  }
}
function doubled(n, value) {
  let t = new Leaf(value);
  for (let leaves = 1; leaves < n; leaves *= 2) t = new Node(t, t);
  return t;
}
// Equality as a person would write it: recursive, no fuel, no sharing noticed but the same object.
function equal(a, b) {
  if (a === b) return true;
  if (a instanceof Leaf) return b instanceof Leaf && a.value === b.value;
  return b instanceof Node && equal(a.left, b.left) && equal(a.right, b.right);
}
const a = doubled(n, 1);
const b = doubled(n, 1);
const c = doubled(n, 2);
console.log(`${equal(a, b)} ${equal(a, c)} ${equal(a, a)}`);
