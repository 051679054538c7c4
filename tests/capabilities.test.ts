// The covering relation between a granted and a needed capability.

import assert from "node:assert/strict";
import { test } from "node:test";
import { covers, normalisePath, scopeCovers } from "../vocabulary/capabilities.js";

const need = (path: string, scope?: string | number) => ({
  path: path.split("."),
  ...(scope === undefined ? {} : { scope }),
});

test("a parent capability covers its children; a sibling does not", () => {
  assert.ok(covers(need("network"), need("network.http", "a.com")));
  assert.ok(covers(need("filesystem"), need("filesystem.write", "out")));
  assert.ok(!covers(need("network.socket"), need("network.http", "a.com")));
  assert.ok(!covers(need("network.http", "a.com"), need("network")));
});

test("an unscoped grant covers every scope; a scoped one only its own", () => {
  assert.ok(covers(need("network.http"), need("network.http", "a.com")));
  assert.ok(covers(need("network.http", "a.com"), need("network.http", "A.COM")));
  assert.ok(!covers(need("network.http", "a.com"), need("network.http", "b.com")));
  assert.ok(
    !covers(need("network.http", "a.com"), need("network.http")),
    "a function that may reach any host is not covered by one host",
  );
  assert.ok(
    covers(need("network.http", "a.com"), need("network.http"), true),
    "a primitive's need is checked again at run time",
  );
});

test("host wildcards cover subdomains only", () => {
  assert.ok(scopeCovers("host", "*.example.com", "api.example.com"));
  assert.ok(scopeCovers("host", "*.example.com", "a.b.example.com"));
  assert.ok(!scopeCovers("host", "*.example.com", "example.com"));
  assert.ok(!scopeCovers("host", "*.example.com", "badexample.com"));
});

test("paths are compared by their text, normalised, never climbing out", () => {
  assert.equal(normalisePath("./a//b/../c/"), "a/c");
  assert.equal(normalisePath("../x"), "../x");
  assert.ok(scopeCovers("path", "out", "out"));
  assert.ok(scopeCovers("path", "out", "out/report.txt"));
  assert.ok(scopeCovers("path", "out", "./out/a/../b"));
  assert.ok(!scopeCovers("path", "out", "out/../secret"));
  assert.ok(!scopeCovers("path", "out", "outside"));
  assert.ok(!scopeCovers("path", ".", "../etc/passwd"));
  assert.ok(!scopeCovers("path", "out", "/out"));
});

test("a host scope may name a port", () => {
  assert.ok(scopeCovers("host", "127.0.0.1", "127.0.0.1:8080"));
  assert.ok(scopeCovers("host", "127.0.0.1:8080", "127.0.0.1:8080"));
  assert.ok(!scopeCovers("host", "127.0.0.1:8080", "127.0.0.1:9090"));
  assert.ok(!scopeCovers("host", "127.0.0.1:8080", "127.0.0.1"));
  assert.ok(scopeCovers("host", "*.example.com", "api.example.com:8443"));
});

test("ports and names are equal or not", () => {
  assert.ok(scopeCovers("port", 8080, 8080));
  assert.ok(!scopeCovers("port", 8080, 8081));
  assert.ok(scopeCovers("name", "TOKEN", "TOKEN"));
  assert.ok(!scopeCovers("name", "TOKEN", "TOKEN2"));
});
