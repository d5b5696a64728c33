// The cuda_fusion executor: fusion regions in the traces (seed programs, the Llama MLP,
// nanoGPT forward and backward), each region's kernel compiled by NVRTC, and the fused traces
// validated and run against the unfused ones.
#include "host_kernels.hpp"
#include "support.hpp"
#include "tracer/clean.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/cuda_driver.hpp"
#include "tracelint/tracer/execute.hpp"
#include "tracelint/tracer/nvrtc.hpp"
#include "tracelint/tracer/regions.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>

// libtorch's headers bring glog's CHECK(cond); the tests mean doctest's.
#undef CHECK
#define CHECK DOCTEST_CHECK

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

TraceRequest request_for(const std::string &path, const std::string &function,
                         std::vector<ArgSpec> args) {
  TraceRequest r;
  r.path = path;
  r.source = test::read_file(path);
  r.function = function;
  r.args = std::move(args);
  r.provenance = false;
  return r;
}

TraceRequest nanogpt_request(bool grad) {
  std::string path = std::string(TRACELINT_SHARED_DIR) + "/models/nanogpt/model.py";
  TraceRequest r;
  r.path = path;
  r.source = test::read_file(path);
  r.module_class = "GPT";
  r.init = {{"config", "GPTConfig(n_layer=2, n_head=2, n_embd=32, block_size=16, vocab_size=64)"}};
  r.args = {{"idx", "i64[2, 12]:0..64"}, {"targets", "i64[2, 12]:-1..64"}};
  r.grad = grad;
  r.provenance = false;
  return r;
}

// The prims an elementwise kernel can take: those with a CUDA spelling (the elementwise prims
// but bitwise_not), and broadcasts.
bool fusible(const Statement &s) {
  if (s.kind != Statement::Kind::BoundSymbol || s.value.kind != ValueKind::Call) return false;
  std::string callee = s.value.callee().qualified_name();
  return callee == "prims.broadcast_in_dim" ||
         (callee.starts_with("prims.") && callee != "prims.bitwise_not" &&
          has_tag(*find_symbol("prims", callee.substr(6)), tags::ELEMENTWISE));
}

std::string type_of(const Statement &s) {
  return s.type_comment && s.type_comment->type ? s.type_comment->type->text : "";
}

// What every fused trace must be: regions of two or more fusible prims of one shape, their
// outputs read after them; and no two fusible tensor prims of one shape left side by side.
void check_regions(const TracedProgram &p) {
  for (std::size_t t = 1; t < p.file.traces.size(); ++t) {
    const std::vector<Statement> &body = p.file.traces[t].body;
    const Statement *previous = nullptr;
    for (const Statement &s : body) {
      if (s.kind == Statement::Kind::Comment || s.kind == Statement::Kind::Blank) continue;
      bool region = s.kind == Statement::Kind::BoundSymbol && s.value.kind == ValueKind::Call &&
                    s.value.callee().kind == ValueKind::Name &&
                    s.value.callee().text.starts_with("cudaFusion");
      if (region) {
        CHECK(s.subsymbols.size() >= 2);
        CHECK(s.target->kind == Target::Kind::List);
        std::set<std::string> shapes;
        for (const Statement &sub : s.subsymbols) {
          CHECK_MESSAGE(fusible(sub), print_statement(sub, 0));
          std::string type = type_of(sub);
          shapes.insert(type.substr(type.find('[')));
        }
        CHECK_MESSAGE(shapes.size() == 1, print_statement(s, 0));
      }
      // Maximal: two fusible prims of one shape in a row would have been one region.
      bool tensor_prim = fusible(s) && type_of(s).find('[') != std::string::npos &&
                         s.value.callee().qualified_name() != "prims.broadcast_in_dim";
      if (tensor_prim && previous) {
        std::string a = type_of(*previous), b = type_of(s);
        std::string pair = print_statement(*previous, 0) + "\n" + print_statement(s, 0);
        CHECK_MESSAGE(a.substr(a.find('[')) != b.substr(b.find('[')), pair);
      }
      previous = tensor_prim ? &s : nullptr;
    }
  }
}

using test::require_clean;

// The program's forward (prologue and computation) on the inputs and module state the fusion
// tests share (seeds 11 and 12, on the CPU).
RtValue run_forward(const TracedProgram &program, const TracedProgram &plain,
                    const ExecOptions &options) {
  TraceFile forward;
  forward.traces = {program.file.traces.at(0), program.file.traces.at(1)};
  Result<RtValue> out = execute_program(forward, make_inputs(plain.inputs, 11, "cpu"), options,
                                        make_module_state(plain.state, 12, at::kCPU));
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? std::string() : out.error().message));
  return std::move(out.value());
}

// Fused and unfused: the same prims in the same order, so the same values, bit for bit.
void runs_as_unfused(const TracedProgram &fused, const TracedProgram &plain) {
  ExecOptions options;
  options.cuda_as_cpu = true;
  Comparison c = compare(run_forward(plain, plain, options), run_forward(fused, plain, options));
  CHECK_MESSAGE(c.equal, c.mismatch);
  CHECK(c.max_abs_diff == 0);
}

// A kernel computes f16 and bf16 in float and rounds once, at its outputs; libtorch's prims
// round after each one. So low-precision results differ by a few of their ulps, not more: for
// bf16 (8 significant bits) 2^-6 of the largest value is two ulps of it.
void within_rounding(const Comparison &c) {
  MESSAGE("kernels vs prims: max abs diff " << c.max_abs_diff << ", relative to the largest "
                                            << c.max_rel_diff);
  if (c.equal) return;
  CHECK_MESSAGE(c.max_rel_diff <= 1.0 / 64, c.mismatch);
}

// The regions run as their kernels (built for the host: host_kernels.hpp), every other prim
// with libtorch, against the unfused trace run with libtorch prim by prim: allclose, as a
// kernel's float math is not libtorch's bit for bit. Forward, and for grad the backward.
void kernels_run_as_unfused(const TracedProgram &fused, const TracedProgram &plain) {
  test::TempDir dir;
  auto kernels = test::HostKernels::build(fused.fusions, dir.path + "/kernels");
  REQUIRE_MESSAGE(kernels.ok(), (kernels.ok() ? std::string() : kernels.error().message));
  ExecOptions with_kernels, with_prims;
  with_kernels.cuda_as_cpu = with_prims.cuda_as_cpu = true;
  with_kernels.regions = kernels.value().get();
  RtValue a = run_forward(fused, plain, with_kernels);
  RtValue b = run_forward(plain, plain, with_prims);
  Comparison c = compare(b, a);
  within_rounding(c);
  std::size_t forward_launches = kernels.value()->launches();
  if (fused.file.traces.size() < 3) {
    CHECK(forward_launches >= fused.fusions.size());
    return;
  }
  // The backward, on each forward's saved_for_backward and the same cotangents.
  const RtValue &saved_a = a.items.at(1), &saved_b = b.items.at(1);
  std::vector<at::Tensor> leaves;
  std::function<void(const RtValue &)> collect = [&](const RtValue &v) {
    if (v.kind == RtValue::Kind::Tensor) leaves.push_back(v.tensor);
    for (const RtValue &item : v.items)
      collect(item);
  };
  collect(b.items.at(0).items.at(1));
  at::manual_seed(13);
  std::vector<RtValue> cotangents;
  for (std::size_t k : plain.gradients->cotangent_of)
    cotangents.push_back(RtValue::of_tensor(at::randn_like(leaves.at(k))));
  Result<RtValue> ga = execute_trace(fused.file.traces.at(2),
                                     {saved_a, RtValue::of_tuple(cotangents)}, with_kernels);
  Result<RtValue> gb =
      execute_trace(plain.file.traces.at(2), {saved_b, RtValue::of_tuple(cotangents)}, with_prims);
  REQUIRE_MESSAGE(ga.ok(), (ga.ok() ? std::string() : ga.error().message));
  REQUIRE_MESSAGE(gb.ok(), (gb.ok() ? std::string() : gb.error().message));
  Comparison g = compare(gb.value(), ga.value());
  within_rounding(g);
  CHECK(kernels.value()->launches() > forward_launches);
}

// Assembles each PTX for sm_90 with the CUDA Toolkit's nvcc (ptxas), as a driver would for an
// H100: what NVRTC emitted is code the GPU takes, not only text. All in one nvcc call.
void assembled_by_nvcc(const std::vector<std::string> &ptx) {
  const std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (!std::filesystem::exists(nvcc)) {
    test::skip_test("nvcc: no CUDA Toolkit at /usr/local/cuda, the PTX was not assembled");
    return;
  }
  test::TempDir dir;
  std::string command =
      test::shell_quote(nvcc) + " -cubin -arch=sm_90 -odir " + test::shell_quote(dir.path);
  for (std::size_t i = 0; i < ptx.size(); ++i) {
    std::string path = dir.path + "/kernel" + std::to_string(i) + ".ptx";
    std::ofstream(path) << ptx[i];
    command += " " + test::shell_quote(path);
  }
  auto [status, out] = test::run_capturing(command + " 2>&1");
  CHECK_MESSAGE(status == 0, out);
  for (std::size_t i = 0; i < ptx.size(); ++i)
    CHECK(std::filesystem::file_size(dir.path + "/kernel" + std::to_string(i) + ".cubin") > 0);
}

void fused_and_checked(const TraceRequest &plain_request, std::size_t at_least,
                       bool assemble = false) {
  TraceRequest r = plain_request;
  r.executors = {"cuda_fusion", "torch"};
  Result<TracedProgram> fused = trace(r);
  REQUIRE_MESSAGE(fused.ok(), (fused.ok() ? std::string() : fused.error().message));
  TraceRequest flat = plain_request;
  flat.level = Level::Prims;
  Result<TracedProgram> plain = trace(flat);
  REQUIRE(plain.ok());
  CHECK(fused->fusions.size() >= at_least);
  check_regions(fused.value());
  require_clean(print_trace_file(fused->file));
  runs_as_unfused(fused.value(), plain.value());
  kernels_run_as_unfused(fused.value(), plain.value());
  if (!have_nvrtc()) {
    test::skip_test("NVRTC: this build found no CUDA Toolkit (/usr/local/cuda)");
    return;
  }
  Result<std::shared_ptr<CudaDriver>> driver = CudaDriver::open();
  KernelCache kernels(driver ? driver.value()->architecture() : kDefaultArchitecture);
  std::vector<std::string> emitted;
  for (const FusionRegion &region : fused->fusions) {
    CAPTURE(region.cuda_source);
    Result<Ptx> ptx = kernels.get(region.name, region.cuda_source);
    REQUIRE_MESSAGE(ptx.ok(), (ptx.ok() ? std::string() : ptx.error().message));
    CHECK(ptx->ptx.find(".entry " + region.name) != std::string::npos);
    emitted.push_back(ptx->ptx);
  }
  if (assemble) assembled_by_nvcc(emitted);
}

std::string models() {
  return std::string(TRACELINT_SOURCE_DIR) + "/examples/tracer/models.py";
}

} // namespace

TEST_CASE("fusion: the seed programs and the Llama MLP, grouped, validated, compiled by NVRTC, "
          "and run as their unfused traces") {
  fused_and_checked(request_for(models(), "slice_half", {{"a", "f32[2, 6]@cuda"}}), 0);
  fused_and_checked(request_for(models(), "index_with_key",
                                {{"a", "f32[2, 3, 12]"}, {"key", "(..., slice(None, 8, None))"}}),
                    0);
  fused_and_checked(
      request_for(models(), "reshape_to", {{"a", "f32[4, 9]"}, {"newshape", "(2, 6, 3)"}}), 0);
  // silu(x @ w_gate.T) * (x @ w_up.T): the silu's four prims are one region, the product with
  // its broadcast another.
  TraceRequest mlp = request_for(models(), "swiglu_mlp",
                                 {{"x", "f32[2, 8, 32]"},
                                  {"w_gate", "f32[64, 32]"},
                                  {"w_up", "f32[64, 32]"},
                                  {"w_down", "f32[32, 64]"}});
  fused_and_checked(mlp, 2);
  mlp.args[0].text = "bf16[2, 8, 32]";
  for (std::size_t i = 1; i < 4; ++i)
    mlp.args[i].text.replace(0, 3, "bf16");
  fused_and_checked(mlp, 2);
}

namespace {

// A model's forward fused and checked (at least `forward_regions` regions), then traced for grad:
// regions in the backward too, validated, run as the unfused traces, and equal to autograd.
void fused_for_training(TraceRequest (*request)(bool), std::size_t forward_regions,
                        bool assemble = false) {
  fused_and_checked(request(false), forward_regions, assemble);
  TraceRequest grad = request(true);
  grad.executors = {"cuda_fusion", "torch"};
  Result<TracedProgram> p = trace(grad);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
  std::size_t in_backward = 0;
  for (const FusionRegion &r : p->fusions)
    in_backward += r.trace == "backward_fn";
  CHECK(in_backward > 0);
  check_regions(p.value());
  require_clean(print_trace_file(p->file));
  TraceRequest plain_grad = request(true);
  plain_grad.level = Level::Prims;
  Result<TracedProgram> plain = trace(plain_grad);
  REQUIRE(plain.ok());
  kernels_run_as_unfused(p.value(), plain.value());
  Result<RunReport> run = run_and_compare(grad, p.value(), RunOptions{3, 0, ""});
  REQUIRE_MESSAGE(run.ok(), (run.ok() ? std::string() : run.error().message));
  CHECK_MESSAGE(run->ok(), run->summary());
  if (have_nvrtc()) CHECK(run->fusion.find("compiled by NVRTC to PTX") != std::string::npos);
}

// A model class of a collected file (tests/models, unmodified), as the fusion tests trace it.
TraceRequest collected_model(const std::string &file, const std::string &cls,
                             std::vector<ArgSpec> init, std::vector<ArgSpec> args, bool grad) {
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/models/" + file;
  TraceRequest r;
  r.path = path;
  r.source = test::read_file(path);
  r.module_class = cls;
  r.init = std::move(init);
  r.args = std::move(args); // the parameters' gradients with grad
  r.grad = grad;
  r.provenance = false;
  return r;
}

// kuangliu/pytorch-cifar's ResNet with ResNet-18's layout.
TraceRequest resnet18_request(bool grad) {
  return collected_model("pytorch-cifar/models/resnet.py", "ResNet",
                         {{"block", "BasicBlock"}, {"num_blocks", "[2, 2, 2, 2]"}},
                         {{"x", "f32[2, 3, 32, 32]"}}, grad);
}

// pytorch/examples' ViT: patches by Tensor.unfold, then nn.MultiheadAttention blocks.
TraceRequest vit_request(bool grad) {
  return collected_model("pytorch-examples-vit/vision_transformer/main.py", "ViT",
                         {{"args", "argparse.Namespace(patch_size=4, n_channels=3, "
                                   "latent_size=16, no_cuda=True, batch_size=2, num_heads=2, "
                                   "dropout=0.1, num_encoders=2, num_classes=10)"}},
                         {{"test_input", "f32[2, 3, 16, 16]"}}, grad);
}

// pytorch/examples' language_translation Translator: nn.Transformer with float source and
// target masks.
TraceRequest translator_request(bool grad) {
  return collected_model("pytorch-examples/language_translation/src/model.py", "Translator",
                         {{"num_encoder_layers", "2"},
                          {"num_decoder_layers", "2"},
                          {"embed_size", "16"},
                          {"num_heads", "2"},
                          {"src_vocab_size", "20"},
                          {"tgt_vocab_size", "24"},
                          {"dim_feedforward", "32"},
                          {"dropout", "0.1"}},
                         {{"src", "i64[5, 2]:0..20"},
                          {"trg", "i64[4, 2]:0..24"},
                          {"src_mask", "f32[5, 5]"},
                          {"tgt_mask", "f32[4, 4]"},
                          {"src_padding_mask", "None"},
                          {"tgt_padding_mask", "None"},
                          {"memory_key_padding_mask", "None"}},
                         grad);
}

} // namespace

TEST_CASE("fusion: nanoGPT's forward and, traced for grad, its backward") {
  if (!test::nanogpt_model()) return;
  fused_for_training(nanogpt_request, 10);
}

TEST_CASE("fusion: a ResNet-18's forward and backward: regions between the convolutions and "
          "pools, compiled by NVRTC (and the forward's assembled for sm_90 by nvcc), run as the "
          "unfused traces") {
  fused_for_training(resnet18_request, 10, true);
}

TEST_CASE("fusion: a ViT's and an nn.Transformer model's forward and backward: regions between "
          "the unfolds, matmuls and attention, compiled by NVRTC (the ViT's forward assembled "
          "for sm_90 by nvcc), run as the unfused traces") {
  fused_for_training(vit_request, 10, true);
  fused_for_training(translator_request, 10);
}

TEST_CASE("fusion: --executors is checked, and --show-kernels prints the kernels") {
  TraceRequest r =
      request_for(models(), "rms_norm", {{"x", "f32[2, 8, 32]"}, {"weight", "f32[32]"}});
  r.executors = {"torch", "cuda_fusion"};
  Result<TracedProgram> wrong = trace(r);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find("torch runs whatever the others do not claim") !=
        std::string::npos);
  r.executors = {"nvfuser"};
  REQUIRE_FALSE(trace(r).ok());
  auto out = test::tracelint("trace " + test::shell_quote(models()) +
                             " -f rms_norm -a 'x=f32[2, 8, 32]' -a 'weight=f32[32]' "
                             "--executors cuda_fusion,torch --show-kernels");
  CHECK(out.exit_code == 0);
  CHECK(out.out.find("extern \"C\" __global__ void cudaFusion0(") != std::string::npos);
  auto needs =
      test::tracelint("trace " + test::shell_quote(models()) +
                      " -f rms_norm -a 'x=f32[2, 8, 32]' -a 'weight=f32[32]' --show-kernels");
  CHECK(needs.exit_code == 2);
}

TEST_CASE("fusion: a kernel's launch reads each view through its strides, 0 where broadcast, and "
          "refuses inputs it was not compiled for") {
  test::TempDir dir;
  std::string path = dir.path + "/f.py";
  test::write_file(path, "import torch\n\ndef f(x, b):\n    return (x + b).exp()\n");
  TraceRequest r = request_for(path, "f", {{"x", "f32[3, 4]"}, {"b", "f32[4]"}});
  r.executors = {"cuda_fusion", "torch"};
  Result<TracedProgram> p = trace(r);
  REQUIRE(p.ok());
  REQUIRE(p->fusions.size() == 1);
  const FusionRegion &region = p->fusions[0];
  // x transposed in memory (strides 1, 3), b of one element stretched over both dims.
  at::Tensor x = at::randn({4, 3}).t(), b = at::randn({1});
  auto plan = [&](const at::Tensor &xv, const at::Tensor &bv) {
    std::vector<RtValue> values;
    for (const std::string &name : region.inputs)
      values.push_back(name == "x"    ? RtValue::of_tensor(xv)
                       : name == "b"  ? RtValue::of_tensor(bv)
                       : name == "i0" ? RtValue::of_int(3)
                                      : RtValue::of_int(4));
    std::vector<const RtValue *> inputs;
    for (const RtValue &v : values)
      inputs.push_back(&v);
    return plan_launch(region, inputs);
  };
  Result<KernelLaunch> launch = plan(x, b);
  REQUIRE_MESSAGE(launch.ok(), (launch.ok() ? std::string() : launch.error().message));
  CHECK(launch->shape == std::vector<int64_t>{3, 4});
  CHECK(launch->elements == 12);
  // meta: the count, the sizes, then the views in the kernel's order (b broadcast, then x).
  std::vector<int64_t> expected = {12, 3, 4};
  for (const FusionRegion::KernelParam &param : region.params)
    if (param.kind == FusionRegion::KernelParam::Kind::View) {
      std::vector<int64_t> strides =
          param.name == "x" ? std::vector<int64_t>{1, 3} : std::vector<int64_t>{0, 0};
      expected.insert(expected.end(), strides.begin(), strides.end());
    }
  CHECK(launch->meta == expected);
  // The kernel built for the host computes exp(x + b) from those strides.
  auto kernels = test::HostKernels::build(p->fusions, dir.path + "/kernels");
  REQUIRE(kernels.ok());
  std::vector<RtValue> values;
  for (const std::string &name : region.inputs)
    values.push_back(name == "x"    ? RtValue::of_tensor(x)
                     : name == "b"  ? RtValue::of_tensor(b)
                     : name == "i0" ? RtValue::of_int(3)
                                    : RtValue::of_int(4));
  std::vector<const RtValue *> inputs;
  for (const RtValue &v : values)
    inputs.push_back(&v);
  Result<std::vector<at::Tensor>> out = kernels.value()->run(region.name, inputs);
  REQUIRE(out.ok());
  CHECK(at::allclose(out->at(0), (x + b).exp()));

  Result<KernelLaunch> wrong_dtype = plan(x.to(at::kDouble), b);
  REQUIRE_FALSE(wrong_dtype.ok());
  CHECK(wrong_dtype.error().message.find("`x` is float64; the kernel reads f32") !=
        std::string::npos);
  Result<KernelLaunch> wrong_shape = plan(x, at::randn({3}));
  REQUIRE_FALSE(wrong_shape.ok());
  CHECK(wrong_shape.error().message.find("does not broadcast to [3, 4]") != std::string::npos);
}

TEST_CASE("fusion: the CUDA driver is opened at run time, and a missing one or the toolkit's "
          "stub is refused with the reason") {
  Result<std::shared_ptr<CudaDriver>> missing = CudaDriver::open("/nonexistent/libcuda.so.1");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("no CUDA driver: cannot open /nonexistent/libcuda.so.1") !=
        std::string::npos);
#ifdef TRACELINT_CUDA_STUB_DRIVER
  Result<std::shared_ptr<CudaDriver>> stub = CudaDriver::open(TRACELINT_CUDA_STUB_DRIVER);
  REQUIRE_FALSE(stub.ok());
  CHECK(stub.error().message.find("stub of the driver") != std::string::npos);
#else
  test::skip_test("the stub driver: this build found no CUDA Toolkit (/usr/local/cuda)");
#endif
}
