"""tracer/oracle/trace_runner.py, the printed-trace runner, against PyTorch itself: each trace here
is written by hand, as Thunder or tracelint prints one, and its results are compared with the
torch calls it stands for."""
import os
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SOURCE / "tracer" / "oracle"))

try:
    import torch
except ImportError:
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(f"{sys.executable} has no torch (scripts/bootstrap.sh installs python3-torch)",
                allow_module_level=True)

import trace_runner  # noqa: E402

HEADER = """import thunder
import thunder.core.devices as devices
import thunder.core.dtypes as dtypes
import thunder.core.prims as prims
import thunder.torch as ltorch
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(x):
"""


def computation(body):
    return trace_runner.load(HEADER + body)["computation"]


def test_a_view_of_a_transposed_tensor_fails_as_in_pytorch_and_names_its_line():
    run = computation("""  t0 = ltorch.transpose(x, 0, 1)  # t0: "cpu f32[3, 2]"
  t1 = ltorch.view(t0, (6,))  # t1: "cpu f32[6]"
  return t1
""")
    with pytest.raises(trace_runner.TraceRunError) as error:
        run(torch.randn(2, 3))
    assert "line 13: `t1 = ltorch.view(t0, (6,))" in str(error.value)
    assert "view size is not compatible" in str(error.value)


def test_contiguous_then_view_is_what_pytorch_computes():
    run = computation("""  t0 = ltorch.transpose(x, 0, 1)
  t1 = ltorch.contiguous(t0, memory_format=None)
  t2 = ltorch.view(t1, (6,))
  t3 = prims.stride_order(t0, (1, 0))
  return (t2, t3)
""")
    x = torch.randn(2, 3)
    viewed, ordered = run(x)
    assert torch.equal(viewed, x.t().contiguous().view(6))
    assert torch.equal(ordered, x.t()) and ordered.is_contiguous()


def test_stride_order_lays_out_the_densest_dim_as_order_says():
    x = torch.randn(2, 3, 4)
    out = trace_runner.stride_order(x, (0, 2, 1))
    assert torch.equal(out, x)
    assert out.stride(0) == 1 and out.stride(2) == 2 * 1 and out.stride(1) == 4 * 2


def test_prims_as_thunder_defines_them():
    prims = trace_runner.prims_namespace()
    # Integers divide as C does; floats truly.
    assert prims.div(-7, 2) == -3 and prims.div(7, -2) == -3 and prims.div(7.0, 2) == 3.5
    assert torch.equal(prims.div(torch.tensor([-7]), torch.tensor([2])), torch.tensor([-3]))
    assert prims.fmod(5, 2) == 1.0 and isinstance(prims.fmod(5, 2), float)
    assert prims.signbit(-0.0) is True and prims.bitwise_not(True) is False
    x = torch.arange(3.0)
    assert torch.equal(prims.broadcast_in_dim(x, (2, 3, 4), (1,)), x[None, :, None].expand(2, 3, 4))
    # Interior padding between elements, then edges; a negative edge crops.
    padded = prims.pad(torch.tensor([1.0, 2.0, 3.0]), 0.0, [(1, -1, 1)])
    assert padded.tolist() == [0.0, 1.0, 0.0, 2.0, 0.0]
    assert torch.equal(prims.sum(x, ()), x) and float(prims.sum(x, (0,))) == 3.0
    assert torch.equal(prims.slice_prim(torch.arange(10), [1], [9], [3]), torch.tensor([1, 4, 7]))
    assert torch.equal(prims.iota(4, start=2, step=3, device="cpu", dtype=torch.int64),
                       torch.tensor([2, 5, 8, 11]))
    assert prims.convert_element_type(2.7, int) == 2


def test_ltorch_calls_pytorch_with_thunders_signatures():
    ltorch = trace_runner.ltorch_namespace()
    x = torch.randn(2, 3, 4)
    assert torch.equal(ltorch.reshape(x, (4, 6)), x.reshape(4, 6))
    assert torch.equal(ltorch.permute(x, (2, 0, 1)), x.permute(2, 0, 1))
    assert torch.equal(ltorch.sum(x, (0, 2), True), x.sum((0, 2), keepdim=True))
    assert torch.equal(ltorch.prod(x, (0, 1)), x.prod(1).prod(0))
    assert torch.allclose(ltorch.var(x, 1, correction=0), x.var(1, unbiased=False))
    assert ltorch.add(2, 3) == 5 and ltorch.div(-7, 2, rounding_mode="floor") == -4
    assert torch.equal(ltorch.zeros(2, 3, device="cpu", dtype=torch.float16),
                       torch.zeros(2, 3, dtype=torch.float16))


def test_a_prologue_check_that_does_not_hold_fails_with_what_it_expected():
    text = HEADER.replace("def computation(x):", "def prologue(*args, **kwargs):") + \
        """  x = args[0]
  prims.check_tensor_shape_and_metadata(x, (2, 3), 'cpu', torch.float32, False)
  return ((x,), ())
"""
    prologue = trace_runner.load(text)["prologue"]
    assert prologue(torch.zeros(2, 3))[0][0].shape == (2, 3)
    with pytest.raises(trace_runner.TraceRunError, match=r"CheckFailed: expected shape \(2, 3\)"):
        prologue(torch.zeros(3, 2))


def test_a_symbol_thunder_does_not_have_is_an_error_naming_its_line():
    run = computation("""  t0 = ltorch.no_such_symbol(x)
  return t0
""")
    with pytest.raises(trace_runner.TraceRunError, match=r"line 12: .*no_such_symbol"):
        run(torch.zeros(1))


def test_the_trace_gets_these_modules_not_an_installed_thunder():
    names = trace_runner.load(HEADER + "  return x\n")
    assert names["computation"](5) == 5
    assert "thunder" not in sys.modules


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_a_trace_made_for_cuda_runs_on_the_cpu_without_cuda():
    text = HEADER.replace("def computation(x):", "def prologue(*args, **kwargs):") + \
        """  x = args[0]
  prims.check_tensor_shape_and_metadata(x, (2,), 'cuda:0', torch.float32, False)
  t0 = ltorch.full((2,), 1.0, device=devices.Device("cuda:0"), dtype=dtypes.float32)
  return ((x, t0), ())
"""
    (x, ones), _ = trace_runner.load(text)["prologue"](torch.zeros(2))
    assert ones.device.type == "cpu" and ones.tolist() == [1.0, 1.0]
