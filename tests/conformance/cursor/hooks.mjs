// Load a project's hooks with Cursor's own hooks runtime, from the
// @cursor/sdk package, and ask it what it decides for shell commands.
//
//   node hooks.mjs SDK_ENTRY PROJECT [COMMAND...]
//
// SDK_ENTRY is @cursor/sdk/dist/esm/index.js. Prints one JSON object:
//   errors     what Cursor's loader reported, with the source of each
//   loaded     { source: { event: number of hooks } }, e.g. projectHooks
//   decisions  { COMMAND: what the beforeShellExecution hooks answered }
// The runtime is the one the SDK's local agent uses; user and enterprise
// hooks are left out, so only the project's files count, unless
// HOOKC_CURSOR_ENTERPRISE=1 lets the enterprise hooks in (a managed install).
const enterprise = process.env.HOOKC_CURSOR_ENTERPRISE === "1";
import { readdirSync } from "node:fs";
import { register } from "node:module";
import { dirname } from "node:path";

register(new URL("./expose.mjs", import.meta.url));

const [entry, project, ...commands] = process.argv.slice(2);
const sdk = await import(entry);
const load = sdk.__hookcModuleLoader;
// The runtime lives in a chunk that the SDK loads on demand.
for (const file of readdirSync(dirname(entry))) {
  const chunk = /^(\d+)\.js$/.exec(file);
  if (chunk) await load.e(Number(chunk[1]));
}
const id = Object.keys(load.m).find((key) => key.endsWith("/core/hooks-runtime.js"));
if (!id) throw new Error("core/hooks-runtime.js is not in @cursor/sdk: update cursor/hooks.mjs");

let service;
for (const make of Object.values(load(id))) {
  if (typeof make !== "function") continue;
  try {
    service = make({ includeUserHooks: false, includeEnterpriseHooks: enterprise });
  } catch {
    continue;
  }
  if (service && typeof service.createHooksRuntime === "function") break;
  service = undefined;
}
if (!service) throw new Error("no hooks-runtime factory in @cursor/sdk: update cursor/hooks.mjs");

const runtime = await service.createHooksRuntime({
  workspaceState: { projectRoot: project, workspaceRoots: [project] },
});
const config = runtime.hooksConfig;
const loaded = {};
for (const [source, value] of Object.entries(config)) {
  if (!source.endsWith("Hooks") || !value?.hooks) continue;
  loaded[source] = {};
  for (const [event, hooks] of Object.entries(value.hooks)) {
    loaded[source][event] = Array.isArray(hooks) ? hooks.length : 0;
  }
}

const decisions = {};
if (commands.length) {
  const session = runtime.createSessionRuntime();
  for (const command of commands) {
    decisions[command] = await session.hookExecutor.executeHookForStep("beforeShellExecution", {
      conversation_id: "hookc-conformance",
      generation_id: "hookc-conformance",
      model: "scripted",
      command,
      cwd: project,
    });
  }
  await session.dispose?.();
}
console.log(JSON.stringify({ errors: config.errors ?? [], loaded, decisions }));
process.exit(0);
