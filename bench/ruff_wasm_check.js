// Times ruff (WebAssembly build) on one file with F821 (undefined name) and F841 (unused
// variable), the peers of tracelint's TL003, as bench/run.sh's baseline. Prints JSON.
const fs = require("fs");
const { Workspace, PositionEncoding } = require("@astral-sh/ruff-wasm-nodejs");
const path = process.argv[2];
const repeats = Number(process.argv[3] || 3);
const text = fs.readFileSync(path, "utf8");
const ws = new Workspace({ lint: { select: ["F821", "F841"] } }, PositionEncoding.Utf8);
let best = Infinity;
let count = 0;
for (let i = 0; i < repeats; i++) {
  const t0 = process.hrtime.bigint();
  const diags = ws.check(text);
  const t1 = process.hrtime.bigint();
  best = Math.min(best, Number(t1 - t0) / 1e9);
  count = diags.length;
}
console.log(JSON.stringify({ seconds: best, diagnostics: count }));
