// The extension's client: it starts `renyi lsp` (the command and its arguments
// from the settings renyi.server.path and renyi.server.args) and talks to it
// over the process's standard input and output. Everything the editor shows
// beyond highlighting comes from that server. The commands of its code lenses
// (renyi.run, renyi.test, ...) come with the words of their command line after
// `renyi`; the client runs them in a terminal with the same command and
// arguments it starts the server with, and only when the person clicks.

import { commands, type ExtensionContext, Uri, window, workspace } from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The `renyi` command of the settings: its program and the arguments before a command's own. */
function renyiCommand(): { command: string; args: string[] } {
  const settings = workspace.getConfiguration("renyi.server");
  const command = settings.get<string>("path", "renyi").trim() || "renyi";
  const args = settings.get<string[]>("args", []).filter((a) => typeof a === "string");
  return { command, args };
}

/** The server's command line: the settings' command and arguments, then `lsp`. */
function serverOptions(): ServerOptions {
  const { command, args } = renyiCommand();
  // No transport is named: the client would add `--stdio`, which `renyi lsp` ignores. Standard input and output
  // are its only channel.
  return { command, args: [...args, "lsp"], options: { shell: false } };
}

/** The commands of the server's code lenses. */
const LENS_COMMANDS = ["renyi.run", "renyi.record", "renyi.replay", "renyi.test", "renyi.refresh"];

/** Runs `renyi WORDS...` in a terminal of its own, in the folder of the file it names last among its words. */
function runInTerminal(words: unknown[]): void {
  const own = words.filter((w): w is string => typeof w === "string");
  const { command, args } = renyiCommand();
  const file = [...own].reverse().find((w) => w.endsWith(".ry"));
  const terminal = window.createTerminal({
    name: `renyi ${own[0] ?? ""}`.trim(),
    shellPath: command,
    shellArgs: [...args, ...own],
    ...(file ? { cwd: Uri.file(file.slice(0, file.lastIndexOf("/") + 1) || ".") } : {}),
  });
  terminal.show();
}

const clientOptions: LanguageClientOptions = {
  documentSelector: [
    { scheme: "file", language: "renyi" },
    { scheme: "untitled", language: "renyi" },
  ],
};

async function start(): Promise<void> {
  const next = new LanguageClient("renyi", "Renyi language server", serverOptions(), clientOptions);
  client = next;
  try {
    await next.start();
  } catch (error) {
    const { command, args } = serverOptions() as { command: string; args: string[] };
    window.showErrorMessage(
      `Renyi: \`${[command, ...args].join(" ")}\` did not start (${String(error)}). ` +
        "Install renyi, or set renyi.server.path to its command.",
    );
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running?.isRunning()) await running.stop();
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

export async function activate(context: ExtensionContext): Promise<void> {
  context.subscriptions.push(
    commands.registerCommand("renyi.restartServer", restart),
    ...LENS_COMMANDS.map((name) => commands.registerCommand(name, (...words: unknown[]) => runInTerminal(words))),
    workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("renyi.server")) void restart();
    }),
  );
  await start();
}

export function deactivate(): Promise<void> {
  return stop();
}
