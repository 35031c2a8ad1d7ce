// Practice's Web Worker (static/js/practice/worker.js): what importScripts(pyodide.js) defines.

declare function loadPyodide(options: object): Promise<any>;
