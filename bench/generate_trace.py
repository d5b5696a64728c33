#!/usr/bin/env python3
"""Writes a large Thunder-style trace (prologue-free computation with subsymbols and del lines)
with exactly one undefined name, for bench/run.sh. By default the file is valid Python, so every
tool does all its work on it; with --leak the slice at the middle of the body holds a repr leak
([IntegerProxy name=i..., ...]), a syntax error, where the valid file spells the proxy's name."""
import argparse
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("output")
    ap.add_argument("--megabytes", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--leak", action="store_true",
                    help="print the slice bound as its debug repr (a syntax error) instead of its name")
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    out = [
        "# Constructed by Delete Last Used (took 0 milliseconds)",
        "import thunder",
        "import thunder.core.prims as prims",
        "import thunder.torch as ltorch",
        "import torch",
        "from thunder.executors.torchex import no_autocast",
        "",
        "@torch.no_grad()",
        "@no_autocast",
        "def computation(x, w0, w1):",
        '  # x: "cuda:0 f32[4, 4096]"',
        '  # w0: "cuda:0 f32[4096, 4096]"',
        '  # w1: "cuda:0 f32[4096, 4096]"',
    ]
    size = sum(len(l) + 1 for l in out)
    live = ["x"]
    n = 0
    target = int(args.megabytes * 1024 * 1024)
    leak_at, undefined_at = None, None
    while size < target:
        n += 1
        a = rnd.choice(live[-8:])
        b = rnd.choice(["w0", "w1", live[-1]])
        t = f"t{n}"
        op = rnd.choice(["add", "mul", "sub", "true_divide"])
        if leak_at is None and size > target // 2:
            leak_at = n
            bound = (f"[IntegerProxy name=i{n}, value=1, static=CONSTRAINT.CONSTRAINABLE]"
                     if args.leak else f"i{n}")
            lines = [f"  i{n} = prims.convert_element_type(1, int)  # i{n}: \"int 1\"",
                     f"  {t} = ltorch.getitem({a}, (..., slice(None, {bound}, None)))  # {t}: \"cuda:0 f32[4, 1]\""]
        elif undefined_at is None and size > 3 * target // 4:
            undefined_at = n
            lines = [f"  {t} = ltorch.{op}({a}, t_missing, alpha=None)  # {t}: \"cuda:0 f32[4, 4096]\""]
        else:
            lines = [
                f"  {t} = ltorch.{op}({a}, {b}, alpha=None)  # {t}: \"cuda:0 f32[4, 4096]\"",
                f"    # t{n}_b = prims.broadcast_in_dim({b}, (4, 4096), (0, 1))  # t{n}_b: \"cuda:0 f32[4, 4096]\"",
                f"    # {t} = prims.{op if op != 'true_divide' else 'div'}({a}, t{n}_b)  # {t}: \"cuda:0 f32[4, 4096]\"",
            ]
        if len(live) > 16:
            dead = live.pop(0)
            if dead != "x":
                lines.append(f"  del {dead}")
        live.append(t)
        out.extend(lines)
        size += sum(len(l) + 1 for l in lines)
    out.append(f"  return {live[-1]}")
    with open(args.output, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{args.output}: {size / 1e6:.1f} MB, {n} bound symbols, "
          f"{'leak' if args.leak else 'slice bound'} at t{leak_at}, undefined name at t{undefined_at}")


if __name__ == "__main__":
    main()
