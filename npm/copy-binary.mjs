#!/usr/bin/env node
// Copy a built hookc program into the npm package of its platform, ready for
// `npm pack` or `npm publish`.
//
//   node npm/copy-binary.mjs BINARY [PACKAGE_DIR]
//
// PACKAGE_DIR defaults to npm/<platform>-<arch> of the machine running this;
// name another one to stage a program built for another platform (the
// release workflow does). The program lands in PACKAGE_DIR/bin, executable.
// The package must carry the launcher's version (npm/hookc/package.json),
// which is the crate's.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const [binary, dir = path.join(here, `${process.platform}-${process.arch}`)] =
  process.argv.slice(2);

function fail(message) {
  console.error(`copy-binary: ${message}`);
  process.exit(1);
}

if (!binary) fail("usage: node npm/copy-binary.mjs BINARY [PACKAGE_DIR]");
if (!existsSync(binary)) fail(`${binary} does not exist; build hookc first`);
if (!existsSync(path.join(dir, "package.json"))) fail(`${dir} is not an npm package directory`);

const read = (file) => JSON.parse(readFileSync(file, "utf8"));
const pkg = read(path.join(dir, "package.json"));
const launcher = read(path.join(here, "hookc", "package.json"));
if (launcher.optionalDependencies?.[pkg.name] !== pkg.version) {
  fail(
    `${pkg.name}@${pkg.version} is not what the launcher depends on ` +
      `(${launcher.optionalDependencies?.[pkg.name] ?? "nothing"}); keep the versions in step`,
  );
}

const exe = pkg.os.includes("win32") ? "hookc.exe" : "hookc";
mkdirSync(path.join(dir, "bin"), { recursive: true });
const target = path.join(dir, "bin", exe);
copyFileSync(binary, target);
chmodSync(target, 0o755);
console.log(`copied ${binary} to ${target}`);
