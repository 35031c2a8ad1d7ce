// Every module of the browser's JavaScript (static/js/) stays under 400 lines: a module that
// grows past it is split by what it does (docs/style.md, "The browser's JavaScript").
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LIMIT = 400;

/** Every .js file under `dir`, with its path. */
function modules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

/** Lines as an editor counts them: a last line without its newline counts too. */
function lineCount(text) {
  if (!text) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

test("the line count reads lines as an editor does", () => {
  assert.equal(lineCount(""), 0);
  assert.equal(lineCount("a\n"), 1);
  assert.equal(lineCount("a\nb"), 2);
  assert.equal(lineCount("a\n".repeat(400)), 400);
});

test(`every module of static/js is under ${LIMIT} lines`, () => {
  const found = modules(join(ROOT, "static", "js"));
  assert.ok(found.length > 20, `only ${found.length} modules found under static/js`);
  const long = found
    .map((path) => ({ path: relative(ROOT, path), lines: lineCount(readFileSync(path, "utf8")) }))
    .filter((module) => module.lines >= LIMIT)
    .map((module) => `${module.path}: ${module.lines} lines`);
  assert.deepEqual(long, [], `split these modules (each under ${LIMIT} lines):\n${long.join("\n")}`);
});
