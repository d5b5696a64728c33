#include "fusion.hpp"

#include "dce.hpp"
#include "recorder.hpp"
#include "tracelint/tracer/registry.hpp"

#include "tracelint/core/type_string.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace tracelint::tracer {

Result<bool> wants_cuda_fusion(const std::vector<std::string> &executors) {
  bool fusion = false;
  for (std::size_t i = 0; i < executors.size(); ++i) {
    const std::string &e = executors[i];
    if (e == "cuda_fusion") {
      fusion = true;
    } else if (e == "torch") {
      if (i + 1 != executors.size())
        return Error{"--executors: torch runs whatever the others do not claim: it comes last "
                     "(cuda_fusion,torch)",
                     "", 0, 0};
    } else {
      return Error{"--executors: unknown executor `" + e + "` (the executors: cuda_fusion, torch)",
                   "", 0, 0};
    }
  }
  return fusion;
}

namespace {

using CudaType = CudaSpelling;

// The kernel types of an annotation's dtype (its short name), or nullptr: it does not fuse.
const CudaType *cuda_type_of(const std::string &dtype) {
  std::optional<DType> d = dtype_from_name(dtype);
  return d ? dtype_info(*d).cuda : nullptr;
}
// Of a dtype that fits(): one with kernel types.
const CudaType &cuda_type(const std::string &dtype) {
  return *cuda_type_of(dtype);
}

bool same_dims(const std::vector<Dim> &a, const std::vector<Dim> &b) {
  return a == b;
}

// A number as a C++ literal of double or long long.
std::string cuda_literal(const Value &v) {
  switch (v.kind) {
  case ValueKind::Bool:
    return v.boolean ? "true" : "false";
  case ValueKind::Int:
    return std::to_string(v.integer) + "LL";
  default: {
    double d = v.real;
    if (std::isnan(d)) return "__longlong_as_double(0x7ff8000000000000LL)";
    if (std::isinf(d))
      return d > 0 ? "__longlong_as_double(0x7ff0000000000000LL)"
                   : "__longlong_as_double(0xfff0000000000000LL)";
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
    std::string text(buffer, end);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
  }
  }
}

// What a region reads and makes, gathered while its prims are collected.
struct Region {
  std::vector<Statement> prims;
  std::vector<Statement> comments; // provenance met inside the run: printed before it
  std::vector<Dim> dims;
  std::string device;
  std::unordered_set<std::string> defined;
};

class Fuser {
public:
  Fuser(Trace &trace, int &next, std::vector<FusionRegion> &regions)
      : trace_(trace), next_(next), regions_(regions) {}

  // The types another trace gives its names (its statements' at every depth).
  void learn_types(const Trace &other) {
    std::function<void(const Statement &)> visit = [&](const Statement &s) {
      if (s.kind == Statement::Kind::AnnotationComment && s.annotation)
        note_type(s.annotated_name, s.annotation->text);
      if (s.type_comment && s.type_comment->type)
        note_type(s.type_comment->name, s.type_comment->type->text);
      for (const Statement &sub : s.subsymbols)
        visit(sub);
    };
    for (const Statement &s : other.body)
      visit(s);
  }

  void run() {
    std::vector<Statement> flat;
    for (Statement &s : trace_.body) {
      if (s.kind == Statement::Kind::AnnotationComment && s.annotation)
        note_type(s.annotated_name, s.annotation->text);
      if (s.kind == Statement::Kind::BoundSymbol && !s.subsymbols.empty() &&
          s.value.kind == ValueKind::Call &&
          s.value.callee().qualified_name().rfind("prims.", 0) != 0)
        flatten(std::move(s), flat);
      else
        flat.push_back(std::move(s));
    }
    for (const Parameter &p : trace_.parameters)
      parameters_.insert(p.name);
    // The last statement reading each name (its annotation's sizes included).
    for (std::size_t k = 0; k < flat.size(); ++k) {
      const Statement &s = flat[k];
      if (s.type_comment && s.type_comment->type) {
        note_type(s.type_comment->name, s.type_comment->type->text);
        for_each_type_symbol(s.type_comment->type->text,
                             [&](std::string_view n) { last_read_[std::string(n)] = k; });
      }
      if (s.kind == Statement::Kind::BoundSymbol || s.kind == Statement::Kind::Return)
        for_each_read_name(s.value, [&](const Value &v) { last_read_[v.text] = k; });
    }
    std::vector<Statement> &out = trace_.body;
    out.clear();
    Region region;
    for (std::size_t k = 0; k < flat.size(); ++k) {
      Statement &s = flat[k];
      if (!region.prims.empty() &&
          (s.kind == Statement::Kind::Comment || s.kind == Statement::Kind::Blank)) {
        region.comments.push_back(std::move(s));
        continue;
      }
      if (fits(s, region)) {
        add(std::move(s), region);
        continue;
      }
      close(region, k, out);
      if (fits(s, region))
        add(std::move(s), region);
      else
        out.push_back(std::move(s));
    }
    close(region, flat.size(), out);
  }

private:
  void note_type(const std::string &name, const std::string &text) {
    Result<ProxyType> t = parse_type_string(text);
    if (t) types_[name] = std::move(t.value());
  }
  const ProxyType *type_of(const std::string &name) const {
    auto t = types_.find(name);
    return t == types_.end() ? nullptr : &t->second;
  }
  bool is_tensor(const std::string &name) const {
    const ProxyType *t = type_of(name);
    return t && t->kind == ProxyKind::Tensor;
  }
  bool is_number(const std::string &name) const {
    const ProxyType *t = type_of(name);
    return t && (t->kind == ProxyKind::Integer || t->kind == ProxyKind::Float ||
                 t->kind == ProxyKind::Bool);
  }

  static std::optional<Sym> prim_of(const Statement &s) {
    if (s.kind != Statement::Kind::BoundSymbol || !s.target ||
        s.target->kind != Target::Kind::Name || s.value.kind != ValueKind::Call ||
        !s.value.keywords.empty())
      return std::nullopt;
    const Value &callee = s.value.callee();
    if (callee.kind != ValueKind::Attribute || callee.items.empty() ||
        callee.items[0].kind != ValueKind::Name || callee.items[0].text != "prims")
      return std::nullopt;
    std::optional<Sym> sym = find_symbol("prims", callee.text);
    if (!sym) return std::nullopt;
    if (*sym != Sym::prims_broadcast_in_dim && !cuda_spelling(*sym)) return std::nullopt;
    return sym;
  }

  // Whether s joins the region (or, when it is empty, can start one).
  bool fits(const Statement &s, const Region &region) const {
    std::optional<Sym> sym = prim_of(s);
    if (!sym || !s.type_comment || !s.type_comment->type) return false;
    const ProxyType *out = type_of(s.target->name);
    if (!out || out->kind != ProxyKind::Tensor || !cuda_type_of(out->dtype)) return false;
    bool open = !region.prims.empty();
    if (open && (!same_dims(out->shape, region.dims) || out->device != region.device)) return false;
    const std::vector<Dim> &dims = open ? region.dims : out->shape;
    std::size_t operands = s.value.positional_count();
    if (*sym == Sym::prims_broadcast_in_dim) {
      // An input broadcast into the region's shape, read through its strides.
      if (operands != 3) return false;
      const Value &a = s.value.arg(0), &bdims = s.value.arg(2);
      if (a.kind != ValueKind::Name || !is_tensor(a.text) || region.defined.count(a.text) ||
          !cuda_type_of(type_of(a.text)->dtype))
        return false;
      if (bdims.kind != ValueKind::List && bdims.kind != ValueKind::Tuple) return false;
      if (bdims.items.size() != type_of(a.text)->shape.size()) return false;
      for (const Value &d : bdims.items)
        if (d.kind != ValueKind::Int || d.integer < 0 ||
            static_cast<std::size_t>(d.integer) >= dims.size())
          return false;
      return true;
    }
    if (*sym == Sym::prims_convert_element_type) operands = 1; // the dtype is no operand
    for (std::size_t i = 0; i < operands; ++i) {
      const Value &a = s.value.arg(i);
      if (a.kind == ValueKind::Int || a.kind == ValueKind::Float || a.kind == ValueKind::Bool)
        continue;
      if (a.kind != ValueKind::Name) return false;
      if (is_number(a.text)) continue;
      if (!is_tensor(a.text) || !cuda_type_of(type_of(a.text)->dtype)) return false;
      if (region.defined.count(a.text)) continue;
      if (!same_dims(type_of(a.text)->shape, dims)) return false;
    }
    return true;
  }

  void add(Statement s, Region &region) {
    if (region.prims.empty()) {
      const ProxyType *out = type_of(s.target->name);
      region.dims = out->shape;
      region.device = out->device;
    }
    region.defined.insert(s.target->name);
    region.prims.push_back(std::move(s));
  }

  // Ends the region before statement `end` of the flattened body.
  void close(Region &region, std::size_t end, std::vector<Statement> &out) {
    if (region.prims.size() < 2) { // one prim gains nothing from a kernel of its own
      for (Statement &c : region.comments)
        out.push_back(std::move(c));
      for (Statement &p : region.prims)
        out.push_back(std::move(p));
      region = Region{};
      return;
    }
    std::vector<std::string> inputs, outputs;
    std::unordered_set<std::string> seen;
    for (const Statement &p : region.prims)
      for_each_read_name(p.value, [&](const Value &v) {
        if (!region.defined.count(v.text) && seen.insert(v.text).second) inputs.push_back(v.text);
      });
    for (const Statement &p : region.prims) {
      auto last = last_read_.find(p.target->name);
      if (last != last_read_.end() && last->second >= end) outputs.push_back(p.target->name);
    }
    FusionRegion info;
    info.name = "cudaFusion" + std::to_string(next_++);
    info.trace = trace_.name;
    info.inputs = inputs;
    info.outputs = outputs;
    info.prims = region.prims.size();
    info.cuda_source = kernel(info, region);
    for (const Dim &d : region.dims)
      info.shape.push_back(d.symbolic ? d.symbol : std::to_string(d.size));

    for (Statement &c : region.comments)
      out.push_back(std::move(c));
    std::vector<Target> targets;
    for (const std::string &o : outputs)
      targets.push_back(Target::named(o));
    std::vector<Value> args;
    for (const std::string &i : inputs)
      args.push_back(Value::name(i));
    Statement call = Statement::bound(Target::list(std::move(targets)),
                                      Value::call(Value::name(info.name), std::move(args)));
    for (Statement &p : region.prims) {
      p.commented = true;
      call.subsymbols.push_back(std::move(p));
    }
    out.push_back(std::move(call));
    // What dies in the region: its intermediates are gone with it, its inputs are freed here
    // (not the trace's parameters: the caller holds them).
    std::vector<std::string> dead;
    for (const std::string &i : inputs) {
      auto last = last_read_.find(i);
      if (is_tensor(i) && !parameters_.count(i) && last != last_read_.end() && last->second < end)
        dead.push_back(i);
    }
    if (!dead.empty()) out.push_back(Statement::del(std::move(dead)));
    regions_.push_back(std::move(info));
    region = Region{};
  }

  // Also fills info.params: what a launch passes, in the kernel's order.
  // Views: each input tensor read by an elementwise prim (through its own strides), or
  // broadcast by prims.broadcast_in_dim (through strides that are 0 on the new dims).
  struct View {
    std::string tensor;
    std::vector<int64_t> broadcast_dims; // empty: the region's dims
    bool broadcast = false;
  };
  // What a region's prims compute, as the kernel's statements and what they read.
  struct KernelBody {
    std::vector<View> views;
    std::unordered_map<std::string, std::string> plain_view; // tensor -> its variable
    std::unordered_map<std::string, std::string> variable;   // a prim's output -> its variable
    std::vector<std::string> scalars;
    std::unordered_set<std::string> scalar_seen;
    bool half = false, bfloat = false;
    std::string body;
    void note_dtype(const std::string &dtype) {
      half = half || dtype == dtype_info(DType::float16).short_name;
      bfloat = bfloat || dtype == dtype_info(DType::bfloat16).short_name;
    }
  };

  // Loads view `index` of the kernel into its variable view<index>.
  std::string load(KernelBody &k, const View &v, std::size_t index) const {
    const ProxyType &t = *type_of(v.tensor);
    k.note_dtype(t.dtype);
    CudaType ct = cuda_type(t.dtype);
    std::string read = "in" + std::to_string(index) + "[offset" + std::to_string(index) + "]";
    return std::string("  const ") + ct.compute + " view" + std::to_string(index) + " = " +
           ct.load + (std::strlen(ct.load) ? "(" + read + ")" : read) + ";\n";
  }

  // The operands of elementwise prim p, as CUDA expressions (loading the views they need).
  std::vector<std::string> operands_of(KernelBody &k, const Statement &p, Sym sym,
                                       const CudaType &out_type) const {
    std::size_t operands = sym == Sym::prims_convert_element_type ? 1 : p.value.positional_count();
    // The compute type of the first tensor operand: numbers are converted to it, as torch
    // computes a tensor with a Python number in the tensor's dtype.
    std::string operand_type = out_type.compute;
    for (std::size_t i = 0; i < operands; ++i) {
      const Value &a = p.value.arg(i);
      if (a.kind == ValueKind::Name && is_tensor(a.text) && !(sym == Sym::prims_where && i == 0)) {
        operand_type = cuda_type(type_of(a.text)->dtype).compute;
        break;
      }
    }
    std::vector<std::string> args;
    for (std::size_t i = 0; i < operands; ++i) {
      const Value &a = p.value.arg(i);
      if (a.kind != ValueKind::Name) {
        args.push_back("((" + operand_type + ")" + cuda_literal(a) + ")");
      } else if (auto v = k.variable.find(a.text); v != k.variable.end()) {
        args.push_back(v->second);
      } else if (is_number(a.text)) {
        if (k.scalar_seen.insert(a.text).second) k.scalars.push_back(a.text);
        args.push_back("((" + operand_type + ")s_" + a.text + ")");
      } else {
        auto seen = k.plain_view.find(a.text);
        if (seen == k.plain_view.end()) {
          k.views.push_back(View{a.text, {}, false});
          std::size_t index = k.views.size() - 1;
          k.body += load(k, k.views.back(), index);
          seen = k.plain_view.emplace(a.text, "view" + std::to_string(index)).first;
        }
        args.push_back(seen->second);
      }
    }
    return args;
  }

  // The kernel's statements: one per prim of the region.
  KernelBody kernel_body(const Region &region) const {
    KernelBody k;
    for (const Statement &p : region.prims) {
      Sym sym = *prim_of(p);
      const ProxyType &out = *type_of(p.target->name);
      k.note_dtype(out.dtype);
      CudaType out_type = cuda_type(out.dtype);
      std::string var = "v_" + p.target->name;
      k.variable[p.target->name] = var;
      if (sym == Sym::prims_broadcast_in_dim) {
        View v{p.value.arg(0).text, {}, true};
        for (const Value &d : p.value.arg(2).items)
          v.broadcast_dims.push_back(d.integer);
        k.views.push_back(v);
        std::size_t index = k.views.size() - 1;
        k.body += load(k, v, index);
        k.body += std::string("  const ") + out_type.compute + " " + var + " = view" +
                  std::to_string(index) + ";\n";
        continue;
      }
      std::vector<std::string> args = operands_of(k, p, sym, out_type);
      std::string expr = cuda_spelling(sym);
      for (std::size_t i = 0; i < args.size(); ++i) {
        std::string placeholder = "{" + std::to_string(i) + "}";
        for (std::size_t at = expr.find(placeholder); at != std::string::npos;
             at = expr.find(placeholder, at + args[i].size()))
          expr.replace(at, placeholder.size(), args[i]);
      }
      k.body += std::string("  const ") + out_type.compute + " " + var + " = (" + out_type.compute +
                ")" + expr + ";\n";
    }
    return k;
  }

  // The kernel's parameters (views, outputs, numbers, meta), also recorded in info.params.
  std::vector<std::string> kernel_params(FusionRegion &info, const KernelBody &k) const {
    using Param = FusionRegion::KernelParam;
    std::vector<std::string> params;
    info.params.clear();
    for (std::size_t i = 0; i < k.views.size(); ++i) {
      const std::string &dtype = type_of(k.views[i].tensor)->dtype;
      std::string type = std::string("const ") + cuda_type(dtype).storage + " *";
      params.push_back(type + "__restrict__ in" + std::to_string(i) + " /* " + k.views[i].tensor +
                       (k.views[i].broadcast ? ", broadcast" : "") + " */");
      info.params.push_back(Param{Param::Kind::View, k.views[i].tensor, type, dtype,
                                  k.views[i].broadcast_dims, k.views[i].broadcast});
    }
    for (std::size_t i = 0; i < info.outputs.size(); ++i) {
      const std::string &dtype = type_of(info.outputs[i])->dtype;
      std::string type = std::string(cuda_type(dtype).storage) + " *";
      params.push_back(type + "__restrict__ out" + std::to_string(i) + " /* " + info.outputs[i] +
                       " */");
      info.params.push_back(Param{Param::Kind::Output, info.outputs[i], type, dtype, {}, false});
    }
    for (const std::string &s : k.scalars) {
      const ProxyType &t = *type_of(s);
      std::string type = t.kind == ProxyKind::Float     ? "double"
                         : t.kind == ProxyKind::Integer ? "long long"
                                                        : "bool";
      params.push_back(type + " s_" + s);
      info.params.push_back(Param{Param::Kind::Number, s, type, "", {}, false});
    }
    params.push_back("const long long *__restrict__ meta");
    info.params.push_back(Param{Param::Kind::Meta, "", "const long long *", "", {}, false});
    return params;
  }

  std::string kernel(FusionRegion &info, const Region &region) const {
    const std::size_t rank = region.dims.size();
    KernelBody k = kernel_body(region);
    std::string source = "// " + info.name + ": " + std::to_string(info.prims) + " prims of " +
                         trace_.name + ", over " + std::to_string(rank) +
                         " dims. meta: the element count, the " + std::to_string(rank) +
                         " sizes, then the strides of each input view (in elements, 0 where it "
                         "is broadcast).\n";
    if (k.half) source += "#include <cuda_fp16.h>\n";
    if (k.bfloat) source += "#include <cuda_bf16.h>\n";
    source += "extern \"C\" __global__ void " + info.name + "(";
    std::vector<std::string> params = kernel_params(info, k);
    for (std::size_t i = 0; i < params.size(); ++i)
      source += (i ? ",\n    " : "\n    ") + params[i];
    source += ") {\n";
    source += "  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n";
    source += "  if (i >= meta[0]) return;\n";
    if (rank > 0) {
      source += "  long long index[" + std::to_string(rank) + "];\n";
      source += "  long long rest = i;\n";
      source += "  for (int d = " + std::to_string(rank) + " - 1; d >= 0; --d) {\n";
      source += "    index[d] = rest % meta[1 + d];\n    rest /= meta[1 + d];\n  }\n";
    }
    for (std::size_t v = 0; v < k.views.size(); ++v) {
      source += "  long long offset" + std::to_string(v) + " = 0;\n";
      if (rank > 0)
        source += "  for (int d = 0; d < " + std::to_string(rank) + "; ++d) offset" +
                  std::to_string(v) + " += index[d] * meta[" + std::to_string(1 + rank) + " + " +
                  std::to_string(v * rank) + " + d];\n";
    }
    source += k.body;
    for (std::size_t o = 0; o < info.outputs.size(); ++o) {
      CudaType ct = cuda_type(type_of(info.outputs[o])->dtype);
      std::string value = "v_" + info.outputs[o];
      source += "  out" + std::to_string(o) + "[i] = " +
                (std::strlen(ct.store) ? std::string(ct.store) + "(" + value + ")" : value) + ";\n";
    }
    source += "}\n";
    return source;
  }

  Trace &trace_;
  int &next_;
  std::vector<FusionRegion> &regions_;
  std::unordered_map<std::string, ProxyType> types_;
  std::unordered_map<std::string, std::size_t> last_read_;
  std::unordered_set<std::string> parameters_;
};

} // namespace

void fuse_regions(Trace &trace, int &next, std::vector<FusionRegion> &regions,
                  const std::vector<const Trace *> &earlier) {
  Fuser fuser(trace, next, regions);
  for (const Trace *t : earlier)
    fuser.learn_types(*t);
  fuser.run();
}

} // namespace tracelint::tracer
