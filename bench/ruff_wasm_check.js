// Times ruff (WebAssembly build) on one file with F821 (undefined name) and F841 (unused
// variable), the peers of tracelint's TL003, as bench/run.sh's baseline. Prints JSON:
//   first:  the first check in this process (V8 runs the wasm code before it is optimised)
//   best:   the fastest of the later checks (V8 has optimised the hot wasm functions by then)
// Node's own start and the wasm module's load are not in either; bench/run.sh times the whole
// process separately.
const fs = require("fs");
const { Workspace, PositionEncoding } = require("@astral-sh/ruff-wasm-nodejs");
const path = process.argv[2];
const repeats = Math.max(1, Number(process.argv[3] || 1));
const text = fs.readFileSync(path, "utf8");
const ws = new Workspace({ lint: { select: ["F821", "F841"] } }, PositionEncoding.Utf8);
const seconds = [];
let count = 0;
for (let i = 0; i < repeats; i++) {
  const t0 = process.hrtime.bigint();
  const diags = ws.check(text);
  const t1 = process.hrtime.bigint();
  seconds.push(Number(t1 - t0) / 1e9);
  count = diags.length;
}
const later = seconds.slice(1);
console.log(JSON.stringify({
  first: seconds[0],
  best: later.length ? Math.min(...later) : seconds[0],
  diagnostics: count,
}));
