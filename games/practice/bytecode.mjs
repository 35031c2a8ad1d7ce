// The engine archive's bytecode, compiled by the CPython the browser runs: Pyodide itself, under
// Node (games/practice/assets.py runs this while it builds the archive; docs/practice.md).
//
// The site's Python (3.11) cannot write CPython 3.13's bytecode, so Pyodide compiles it: the
// same interpreter, the same magic number and the same optimisation level as in the worker.
//
//   node games/practice/bytecode.mjs <pyodide folder>  < {"files": {"games/x.py": "<base64 source>", ...}}
//   > {"python": "3.13.2", "optimize": 0, "magic": "<hex>", "files": {"games/x.py": "<base64 .pyc>", ...}}
//
// Each .pyc is an unchecked hash-based one (PEP 552): no date in it, the same bytes for the same
// source, and trusted by zipimport without reading the source. The files are compiled in sorted
// order, in one fresh interpreter, so the same sources give the same bytes.

import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const folder = path.resolve(process.argv[2] || "node_modules/pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
const request = JSON.parse(readFileSync(0, "utf8"));
const pyodide = await loadPyodide({ indexURL: folder + path.sep, stdout: () => {}, stderr: () => {} });

const COMPILE = `
import base64, importlib.util, json, marshal, sys

def pyc(name, source):
    # Compiled at the interpreter's own optimisation level (optimize=-1), as an import would.
    code = compile(source, name, "exec", dont_inherit=True, optimize=-1)
    flags = 0b01  # hash based, the source not checked (PEP 552)
    header = importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little") + importlib.util.source_hash(source)
    return header + marshal.dumps(code)

def compile_all(text):
    files = json.loads(text)["files"]
    out = {name: base64.b64encode(pyc(name, base64.b64decode(files[name]))).decode() for name in sorted(files)}
    return json.dumps({
        "python": sys.version.split()[0],
        "optimize": sys.flags.optimize,
        "magic": importlib.util.MAGIC_NUMBER.hex(),
        "files": out,
    })
`;
pyodide.runPython(COMPILE);
const answer = pyodide.globals.get("compile_all")(JSON.stringify(request));
process.stdout.write(answer);
