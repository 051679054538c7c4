// The refusals of `renyi view`'s server (spec/view.md, sections 2 and 3): a request it does not
// answer, and a file it does not serve. Each is sent to the page as `{"code", "message"}` with a
// 4xx status (a 500 for the server's own fault). Run-time rows, joined to the others in run.ts.

import { problem } from "./entry.js";

const VIEW = "renyi view examples/";

export const VIEW_PROBLEMS = {
  "E-VIEW-FORBIDDEN": problem<{ why: "token" | "host" | "origin" | "site" }>({
    title: "A request the page's server does not answer",
    kind: "refused",
    facts: {
      why:
        "`token` (the address does not begin with the server's token), `host` (the request names another host " +
        "than 127.0.0.1 or localhost at the server's port), `origin` (its Origin is another site's) or `site` " +
        "(its Sec-Fetch-Site says another site)",
    },
    render: (f) => ({
      message:
        f.why === "token"
          ? "the address does not hold this server's token"
          : f.why === "host"
            ? "the request names another host than this server's"
            : f.why === "origin"
              ? "the request comes from another origin"
              : "the request comes from another site",
    }),
    explanation: `\`renyi view\` serves a page that reads the files it was given, so it answers the page alone:
a request whose address does not begin with the token the command printed, that names a host
other than \`127.0.0.1:PORT\` or \`localhost:PORT\` (a site that rebinds its own name to this
machine), or that says it comes from another origin or site, is refused with 403 before anything
is read. Open the address \`renyi view\` printed, token and all; a page of another site cannot.`,
    wrong: `${VIEW}
curl http://127.0.0.1:PORT/api/items`,
    right: `${VIEW}
curl http://127.0.0.1:PORT/TOKEN/api/items`,
    described: true,
  }),

  "E-VIEW-METHOD": problem<{ method: string }>({
    title: "A request of a method the page's server does not answer",
    kind: "refused",
    facts: { method: "the request's method" },
    render: (f) => ({ message: `the page's server answers GET and HEAD alone, not ${f.method.slice(0, 20)}` }),
    explanation: `The page's server reads and changes nothing: it answers GET and HEAD, and refuses any other
method with 405, so that no request of any page can make it do anything but read.`,
    wrong: `curl -X POST http://127.0.0.1:PORT/TOKEN/api/items`,
    right: `curl http://127.0.0.1:PORT/TOKEN/api/items`,
    described: true,
  }),

  "E-VIEW-NOT-FOUND": problem<{ what: string; why: string }>({
    title: "Nothing the page's server serves",
    kind: "refused",
    facts: {
      what: "what the request asked for: an id, an address, a call's index",
      why: "why nothing is served by that name",
    },
    render: (f) => ({ message: f.what === "" ? f.why : `${f.what.slice(0, 200)}: ${f.why}` }),
    explanation: `The page names a file by an id, \`<root index>/<path under that root>\`, as \`api/items\`
listed it. An id is served only when it names a program (\`.ry\`) or a recording found under its
root: a root index out of range, a path with \`..\`, \`.\`, an empty part, a NUL or a backslash, a
dot folder or \`node_modules\`, a folder, or a symbolic link that leads out of its root is refused
with 404 (spec/view.md, section 3). No part of a request is ever opened as a path.`,
    wrong: `curl 'http://127.0.0.1:PORT/TOKEN/api/text?id=0/../../etc/passwd'`,
    right: `curl 'http://127.0.0.1:PORT/TOKEN/api/text?id=0/weather.ry'`,
    described: true,
  }),

  "E-VIEW-TOO-LARGE": problem<{ what: string; limitMiB: number }>({
    title: "A file too large for the page's server to send",
    kind: "refused",
    facts: { what: "the file's id", limitMiB: "the most it sends, in MiB" },
    render: (f) => ({
      message: `${f.what.slice(0, 200)} is larger than the ${f.limitMiB} MiB the page's server sends as text`,
    }),
    explanation: `\`api/text\` sends a program's or a recording's text for the playground, at most 32 MiB of it:
the page would hold it all. A recording of any size up to the reader's limit is still shown by
\`api/recording\`, which sends its calls without their bodies.`,
    wrong: `curl 'http://127.0.0.1:PORT/TOKEN/api/text?id=0/huge.json'`,
    right: `curl 'http://127.0.0.1:PORT/TOKEN/api/recording?id=0/huge.json'`,
    described: true,
  }),

  "E-VIEW-MEMORY": problem<{ what: string; limitMiB: number }>({
    title: "A recording or program that took more memory than the page's reader may use",
    kind: "limit",
    facts: { what: "the id of what was being read", limitMiB: "the heap the server's reader may use, in MiB" },
    render: (f) => ({
      message: `reading ${f.what.slice(0, 400)} took more memory than the server's reader may use (${f.limitMiB} MiB)`,
    }),
    explanation: `\`renyi view\` reads recordings and checks programs in a process of its own, the reader,
whose heap is limited: a quarter of the machine's memory, at most 2048 MiB. A recording read takes
more heap than its file (one of many tiny values, about 25 times), and a file that would take the
reader past its limit ends it: that request is refused with 413, and the next one is answered by a
fresh reader. The server goes on. The commands still read such a recording, with the heap of their own
process (\`renyi grant\`, a replay).`,
    wrong: `curl 'http://127.0.0.1:PORT/TOKEN/api/recording?id=0/millions-of-tiny-values.json'`,
    right: `renyi grant millions-of-tiny-values.json`,
    described: true,
  }),

  "E-VIEW-TIMEOUT": problem<{ what: string; seconds: number }>({
    title: "A recording or program the page's reader took too long over",
    kind: "limit",
    facts: { what: "the id of what was being read", seconds: "the time a reading may take, in seconds" },
    render: (f) => ({
      message: `reading ${f.what.slice(0, 400)} took longer than the ${f.seconds} s the server's reader may take`,
    }),
    explanation: `\`renyi view\` reads recordings and checks programs in a process of its own, the reader, one
request at a time, each for at most 30 seconds. A program whose check would take longer (a hostile
one can) has the reader ended at the bound: that request is refused with 504, and the next one is
answered by a fresh reader. The page's list and files are answered meanwhile. Check such a program with \`renyi check\`.`,
    wrong: `curl 'http://127.0.0.1:PORT/TOKEN/api/program?id=0/slow-to-check.ry'`,
    right: `renyi check slow-to-check.ry`,
    described: true,
  }),

  "E-VIEW-BUSY": problem<{ why: "waiting" | "ending" }>({
    title: "A request the page's reader has no room for",
    kind: "refused",
    facts: {
      why: "`waiting` (64 requests already wait for the server's reader) or `ending` (the server is stopping)",
    },
    render: (f) => ({
      message:
        f.why === "waiting"
          ? "the server's reader has 64 requests waiting already: ask again when they are answered"
          : "the server is stopping",
    }),
    explanation: `The requests that read a recording or check a program wait their turn for the server's
reader, at most 64 of them: another is refused with 503 at once, and so is every request that waits
when the server stops. Ask again once the page has its answers.`,
    wrong: `(65 requests for api/recording at once)`,
    right: `(the page's own requests, a few at a time)`,
    described: true,
  }),

  "E-VIEW-INTERNAL": problem<{ detail: string }>({
    title: "An internal error of the page's server",
    kind: "internal",
    facts: { detail: "the error's first line" },
    render: (f) => ({ message: `the server failed to answer: ${f.detail}` }),
    explanation: `The page's server met an error of its own while answering. The page shows the message and goes
on; the server goes on answering other requests. It is a bug in Renyi: please report it with the
request that made it.`,
    wrong: `(a request the server fails to answer)`,
    right: `(the same request, answered)`,
    described: true,
  }),
};
