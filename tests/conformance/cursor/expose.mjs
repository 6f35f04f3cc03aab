// A Node module hook for hooks.mjs. The Cursor SDK bundles its modules with
// webpack and exports no way into its hooks runtime, so when the SDK's ESM
// entry loads, this appends one export: the bundle's own module loader
// (webpack's `require`). The file on disk is not changed; nothing else in
// the SDK's code is.
const ENTRY = /\/@cursor\/sdk\/dist\/esm\/index\.js$/;
// webpack's loader starts `function r(e){var t=c[e];if(void 0!==t)return t.exports`.
const LOADER = /function ([\w$]+)\(([\w$]+)\)\{var ([\w$]+)=[\w$]+\[\2\];if\(void 0!==\3\)return \3\.exports/;

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!ENTRY.test(url)) return loaded;
  const source = String(
    typeof loaded.source === "string" ? loaded.source : new TextDecoder().decode(loaded.source),
  );
  const found = source.match(LOADER);
  if (!found) {
    throw new Error("the webpack module loader was not found in @cursor/sdk: update cursor/expose.mjs");
  }
  return {
    ...loaded,
    source: `${source}\nexport { ${found[1]} as __hookcModuleLoader };\n`,
    shortCircuit: true,
  };
}
