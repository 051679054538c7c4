// The extension's client: it starts `renyi lsp` (the command and its arguments
// from the settings renyi.server.path and renyi.server.args) and talks to it
// over the process's standard input and output. Everything the editor shows
// beyond highlighting comes from that server.

import { commands, type ExtensionContext, window, workspace } from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The server's command line: the settings' command and arguments, then `lsp`. */
function serverOptions(): ServerOptions {
  const settings = workspace.getConfiguration("renyi.server");
  const command = settings.get<string>("path", "renyi").trim() || "renyi";
  const args = settings.get<string[]>("args", []).filter((a) => typeof a === "string");
  // No transport is named: the client would add `--stdio`, which `renyi lsp` does not take. Standard input and output
  // are its only channel.
  return { command, args: [...args, "lsp"], options: { shell: false } };
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
    workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("renyi.server")) void restart();
    }),
  );
  await start();
}

export function deactivate(): Promise<void> {
  return stop();
}
