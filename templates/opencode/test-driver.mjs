// The OpenCode side of `hookc test`: load a plugin module the way OpenCode
// does and call its `tool.execute.before` hook once, with the call read from
// stdin as {tool, sessionID, callID, args}.
//
//   node test-driver.mjs PLUGIN < call.json
//
// Prints one JSON line: {"loaded": false, "message"} when the plugin could not
// be loaded (OpenCode then runs without it), else {"loaded": true, "threw"}
// and, when the hook threw (OpenCode's only way to stop a call), the Error's
// "message", which is what the model reads, or else, when the hook changed
// them in place, the "args" the tool then runs with.

import { pathToFileURL } from "node:url";

const report = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

let text = "";
for await (const chunk of process.stdin) text += chunk;

let hook;
try {
  const module = await import(pathToFileURL(process.argv[2]).href);
  const plugins = Object.values(module).filter((f) => typeof f === "function");
  if (plugins.length === 0) throw new Error("the module exports no plugin function");
  const directory = process.cwd();
  for (const plugin of plugins) {
    const hooks = await plugin({ directory, worktree: directory, project: {}, client: {} });
    hook ??= hooks?.["tool.execute.before"];
  }
  if (typeof hook !== "function") throw new Error("no plugin has a tool.execute.before hook");
} catch (error) {
  report({ loaded: false, message: String(error?.message ?? error) });
  process.exit(0);
}

// A call OpenCode could not describe reaches the hook as empty objects.
let call = null;
try {
  call = JSON.parse(text);
} catch {
  call = null;
}
const input = call ? { tool: call.tool, sessionID: call.sessionID, callID: call.callID } : {};
const output = call ? { args: call.args } : {};
try {
  const before = JSON.stringify(output.args);
  await hook(input, output);
  const changed = JSON.stringify(output.args) !== before;
  report({ loaded: true, threw: false, ...(changed ? { args: output.args } : {}) });
} catch (error) {
  report({ loaded: true, threw: true, message: String(error?.message ?? error) });
}
