// Import an OpenCode plugin the way OpenCode does, under the Bun that the
// `opencode` binary embeds (run it as `BUN_BE_BUN=1 opencode plugin.mjs …`),
// and list the hooks each export returns next to the hook names that
// @opencode-ai/plugin declares.
//
//   BUN_BE_BUN=1 opencode plugin.mjs PLUGIN HOOKS_D_TS PROJECT
//
// Prints one JSON object: { declared, importError?, exports: [{ name, type,
// hooks?, initError? }] }. OpenCode skips a plugin that fails to import
// without a word, which is why this check exists.
import { readFileSync } from "node:fs";

const [plugin, typings, project] = process.argv.slice(2);

// The keys of `interface Hooks { … }` in the package's type definitions.
const declared = [];
const text = readFileSync(typings, "utf8");
const body = text.slice(text.indexOf("interface Hooks {"));
for (const line of body.split("\n").slice(1)) {
  if (line.startsWith("}")) break;
  const key = /^ {4}"?([A-Za-z][\w.]*)"?\??:/.exec(line);
  if (key) declared.push(key[1]);
}

const report = { declared, exports: [] };
let module;
try {
  module = await import(plugin);
} catch (error) {
  report.importError = String(error?.message ?? error);
  console.log(JSON.stringify(report));
  process.exit(0);
}

// Enough of OpenCode's plugin context for a plugin to start; the real one
// is exercised by the headless turn.
const client = new Proxy(() => {}, {
  get: (_, key) => (key === "then" ? undefined : client),
  apply: async () => ({}),
});
const shell = Object.assign(async () => ({ stdout: "", stderr: "", exitCode: 0 }), {
  cwd: () => shell,
  env: () => shell,
  nothrow: () => shell,
  quiet: () => shell,
});
const context = {
  client,
  $: shell,
  project: { id: "hookc-conformance", worktree: project },
  directory: project,
  worktree: project,
  serverUrl: new URL("http://127.0.0.1:9"),
};
for (const [name, value] of Object.entries(module)) {
  const entry = { name, type: typeof value };
  if (typeof value === "function") {
    try {
      const hooks = await value(context);
      entry.hooks = Object.keys(hooks ?? {});
    } catch (error) {
      entry.initError = String(error?.message ?? error);
    }
  }
  report.exports.push(entry);
}
console.log(JSON.stringify(report));
process.exit(0);
