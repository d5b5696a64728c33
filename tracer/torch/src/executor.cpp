// The trace executor: a trace compiled once (names to slots, constants evaluated, ltorch
// symbols inlined as their prims, each prim resolved to its registry id), then run step by step
// with the libtorch implementations, freeing each intermediate after its last use.
#include "annotations.hpp"
#include "runtime.hpp"

#include "tracelint/tracer/registry.hpp"

#include "tracelint/core/printer.hpp"

#include <c10/util/Exception.h>

#include <unordered_map>
#include <unordered_set>

namespace tracelint::tracer {

namespace {

// An expression of a statement with its names resolved to slots and its constant parts
// evaluated once: running a step then costs no name lookups and no string work.
// What a run reads comes first and the constants live in the trace's pool: each tensor op
// evicts the executor's data from the caches, so every cache line a step touches costs a miss.
struct Operand {
  enum class Kind : uint8_t {
    Slot,
    Constant,
    Collection,
    Attribute,
    Subscript,
    Call,
    Module,      // globals()['__function_obj']
    StateTensor, // fn.get_parameter('path'), fn.get_buffer('path'), fn.a.b
    Region       // a fusion region run by ExecOptions::regions: its name, its arguments
  };
  Kind kind = Kind::Constant;
  RtValue::Kind collection = RtValue::Kind::Tuple;
  Sym sym{};         // Call: the prim
  int slot = -1;     // Slot
  int constant = -1; // Constant: its index in CompiledTrace::constants
  // Collection: elements; Attribute: base; Subscript: base, index; Call, Region: arguments. They
  // are CompiledTrace::operands[first_item, first_item + item_count): each step's next to the
  // last's.
  uint32_t first_item = 0;
  uint32_t item_count = 0;
  // Slot: the name; Attribute: the attribute; StateTensor: the path; Region: its name
  std::string text;
};

struct TargetSlots {
  int slot = -1; // a name's slot; -1 for `_` or a tuple
  bool is_name = true;
  std::vector<TargetSlots> elements;
};

// A half-open range of slots in CompiledTrace::deleted_slots or freed_slots.
struct SlotRange {
  uint32_t begin = 0;
  uint32_t end = 0;
};

struct Step {
  bool is_return = false;
  bool is_delete = false;
  bool is_annotation = false; // `# x: "..."`: only checks x (its value is the Slot operand)
  int check = -1;             // CompiledTrace::checks: what the target's annotation claims
  SlotRange deleted;          // in deleted_slots
  SlotRange last_uses;        // in freed_slots: slots no later step reads, freed after this one
  std::optional<TargetSlots> target;
  Operand value;
  const Statement *statement = nullptr; // for messages
};

struct CompiledTrace {
  std::string name;
  std::vector<std::pair<ParamKind, int>> parameters;
  std::vector<Step> steps;
  std::vector<std::string> slot_names;
  std::vector<RtValue> constants; // Operand::constant
  std::vector<Operand> operands;  // the items of the steps' operands
  // The steps' deleted and last-use slots, each in step order: a run reads them one after
  // another.
  std::vector<int> deleted_slots;
  std::vector<int> freed_slots;
  std::vector<AnnotationCheck> checks; // Step::check
};

class Compiler {
public:
  explicit Compiler(const RegionRunner *regions) : regions_(regions) {}

  CompiledTrace compile(const Trace &trace) {
    out_.name = trace.name;
    // The prologue's annotations describe the inputs it then checks with its check prims,
    // whose errors say what was expected; the other traces' annotations are asserted.
    check_annotations_ = trace.name != "prologue";
    for (const Parameter &p : trace.parameters)
      out_.parameters.emplace_back(p.kind, slot(p.name));
    for (const Statement &s : trace.body)
      statement(s);
    free_after_last_use();
    return std::move(out_);
  }

private:
  void reads(const Operand &op, std::vector<int> &out) const {
    if (op.kind == Operand::Kind::Slot) out.push_back(op.slot);
    for (uint32_t i = 0; i < op.item_count; ++i)
      reads(out_.operands[op.first_item + i], out);
  }

  // Puts an operand's items in the pool, together.
  void set_items(Operand &op, std::vector<Operand> items) {
    op.first_item = static_cast<uint32_t>(out_.operands.size());
    op.item_count = static_cast<uint32_t>(items.size());
    for (Operand &item : items)
      out_.operands.push_back(std::move(item));
  }

  // Thunder's "Delete Last Used" for the executor: an intermediate lives until its last reader,
  // so memory is reused as in eager code instead of growing with the trace.
  void free_after_last_use() {
    std::vector<int> last(out_.slot_names.size(), -1);
    std::vector<int> read;
    for (std::size_t i = 0; i < out_.steps.size(); ++i) {
      read.clear();
      reads(out_.steps[i].value, read);
      for (int slot : read)
        last[static_cast<std::size_t>(slot)] = static_cast<int>(i);
    }
    std::vector<std::vector<int>> freed(out_.steps.size());
    for (std::size_t slot = 0; slot < last.size(); ++slot)
      if (last[slot] >= 0 && !out_.steps[static_cast<std::size_t>(last[slot])].is_return)
        freed[static_cast<std::size_t>(last[slot])].push_back(static_cast<int>(slot));
    std::vector<int> &list = out_.freed_slots;
    for (std::size_t i = 0; i < out_.steps.size(); ++i) {
      out_.steps[i].last_uses.begin = static_cast<uint32_t>(list.size());
      list.insert(list.end(), freed[i].begin(), freed[i].end());
      out_.steps[i].last_uses.end = static_cast<uint32_t>(list.size());
    }
  }

  int constant(RtValue v) {
    out_.constants.push_back(std::move(v));
    return static_cast<int>(out_.constants.size() - 1);
  }

  int slot(const std::string &name) {
    auto [it, added] = slots_.emplace(name, static_cast<int>(out_.slot_names.size()));
    if (added) out_.slot_names.push_back(name);
    return it->second;
  }

  void statement(const Statement &s) {
    try {
      switch (s.kind) {
      case Statement::Kind::BoundSymbol:
      case Statement::Kind::AnnotatedAssign: {
        std::string callee =
            s.value.kind == ValueKind::Call ? s.value.callee().qualified_name() : "";
        if (regions_ && s.value.kind == ValueKind::Call &&
            s.value.callee().kind == ValueKind::Name && regions_->runs(callee)) {
          // A fusion region the runner launches as its kernel, not as its subsymbols.
          Step step;
          step.statement = &s;
          step.value.kind = Operand::Kind::Region;
          step.value.text = callee;
          std::vector<Operand> args;
          for (std::size_t i = 1; i < s.value.items.size(); ++i)
            args.push_back(operand(s.value.items[i]));
          set_items(step.value, std::move(args));
          if (s.target) step.target = target(*s.target);
          out_.steps.push_back(std::move(step));
          return;
        }
        if (!s.subsymbols.empty() && callee.rfind("prims.", 0) != 0) {
          // A composite symbol runs as its decomposition.
          for (const Statement &sub : s.subsymbols)
            statement(sub);
          if (s.target)
            for (const Target *t : s.target->bound_names())
              if (!slots_.count(t->name))
                throw ExecError("the subsymbols of " + callee + " do not define " + t->name);
          // The composite's own annotation: what its subsymbols left in its target.
          if (int check = s.target ? check_of(s) : -1; check >= 0)
            annotation_step(s, s.target->name, check);
          return;
        }
        Step step;
        step.statement = &s;
        step.value = operand(s.value);
        if (s.target) {
          step.target = target(*s.target);
          if (step.value.kind == Operand::Kind::Module && s.target->kind == Target::Kind::Name)
            module_slots_.insert(step.target->slot);
          step.check = check_of(s);
        }
        out_.steps.push_back(std::move(step));
        return;
      }
      case Statement::Kind::Return: {
        Step step;
        step.statement = &s;
        step.is_return = true;
        if (s.has_value) step.value = operand(s.value);
        out_.steps.push_back(std::move(step));
        return;
      }
      case Statement::Kind::Delete: {
        Step step;
        step.statement = &s;
        step.is_delete = true;
        std::vector<int> &list = out_.deleted_slots;
        step.deleted.begin = static_cast<uint32_t>(list.size());
        for (const Target &t : s.deleted)
          list.push_back(slot(t.name));
        step.deleted.end = static_cast<uint32_t>(list.size());
        out_.steps.push_back(std::move(step));
        return;
      }
      case Statement::Kind::AnnotationComment:
        // `# x: "cpu f32[i0]"` of a name already bound (a parameter, an unpacked value).
        if (s.annotation && slots_.count(s.annotated_name))
          if (int check = add_check(s.annotated_name, s.annotation->text); check >= 0)
            annotation_step(s, s.annotated_name, check);
        return;
      case Statement::Kind::Raw:
        throw ExecError("cannot execute a statement the model does not represent");
      default:
        return; // comments, annotations, blank lines
      }
    } catch (const ExecError &e) {
      throw ExecError(where(out_.name, s) + ": " + e.what());
    }
  }

  // The annotation of a statement's single-name target (annotated assignment or `# t1: ...`
  // type comment) as a check, or -1.
  int check_of(const Statement &s) {
    if (!s.target || s.target->kind != Target::Kind::Name || s.target->name == "_") return -1;
    if (s.kind == Statement::Kind::AnnotatedAssign && s.annotation)
      return add_check(s.target->name, s.annotation->text);
    if (s.type_comment && s.type_comment->type && s.type_comment->name == s.target->name)
      return add_check(s.target->name, s.type_comment->type->text);
    return -1;
  }

  int add_check(const std::string &name, const std::string &text) {
    if (!check_annotations_) return -1;
    std::optional<AnnotationCheck> check = annotation_check(name, text);
    if (!check) return -1;
    for (std::size_t d = 0; d < check->type.shape.size(); ++d)
      if (const Dim &dim = check->type.shape[d]; dim.symbolic)
        if (auto it = slots_.find(dim.symbol); it != slots_.end()) check->dim_slots[d] = it->second;
    out_.checks.push_back(std::move(*check));
    return static_cast<int>(out_.checks.size() - 1);
  }

  // A step that reads `name` (so it lives until then) and checks it.
  void annotation_step(const Statement &s, const std::string &name, int check) {
    Step step;
    step.statement = &s;
    step.is_annotation = true;
    step.check = check;
    step.value.kind = Operand::Kind::Slot;
    step.value.slot = slot(name);
    step.value.text = name;
    out_.steps.push_back(std::move(step));
  }

  TargetSlots target(const Target &t) {
    TargetSlots out;
    if (t.kind == Target::Kind::Name) {
      if (t.name != "_") out.slot = slot(t.name);
      return out;
    }
    out.is_name = false;
    for (const Target &e : t.elements)
      out.elements.push_back(target(e));
    return out;
  }

  // The module's state reached through a name that holds it: fn.a.b, or none.
  std::optional<std::string> state_path(const Value &v) {
    if (v.kind == ValueKind::Name) {
      auto it = slots_.find(v.text);
      if (it != slots_.end() && module_slots_.count(it->second)) return std::string();
      return std::nullopt;
    }
    if (v.kind != ValueKind::Attribute) return std::nullopt;
    std::optional<std::string> base = state_path(v.items[0]);
    if (!base) return std::nullopt;
    return base->empty() ? v.text : *base + "." + v.text;
  }

  // A tuple, list, dict or slice: its items as operands, or, when every item is a constant,
  // one constant made here.
  Operand collection_operand(const Value &v) {
    Operand op;
    op.kind = Operand::Kind::Collection;
    op.collection = runtime_kind(v.kind);
    std::vector<Operand> items;
    bool all_constant = true;
    for (const Value &item : v.items) {
      items.push_back(operand(item));
      all_constant = all_constant && items.back().kind == Operand::Kind::Constant;
    }
    if (!all_constant) {
      set_items(op, std::move(items));
      return op;
    }
    // Evaluated once, here. The items' constants are the last ones pooled (each item left one
    // there): they move into the collection, which takes their place.
    RtValue collection;
    collection.kind = op.collection;
    std::size_t first = out_.constants.size() - items.size();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (items[i].constant != static_cast<int>(first + i))
        throw ExecError("internal error: the executor's constant pool is out of order");
      collection.items.push_back(std::move(out_.constants[first + i]));
    }
    out_.constants.resize(first);
    op.kind = Operand::Kind::Constant;
    op.constant = constant(std::move(collection));
    return op;
  }

  // A call: a module's state tensor (fn.get_parameter('path')), or a prim of the registry
  // with its arguments (the arity checked against its schema).
  Operand call_operand(const Value &v) {
    Operand op;
    const Value &callee = v.callee();
    if (callee.kind == ValueKind::Attribute &&
        (callee.text == "get_parameter" || callee.text == "get_buffer") &&
        state_path(callee.items[0]) && v.items.size() == 2 &&
        v.items[1].kind == ValueKind::String) {
      op.kind = Operand::Kind::StateTensor;
      op.text = v.items[1].text;
      return op;
    }
    std::string name = callee.qualified_name();
    std::size_t dot = name.rfind('.');
    std::optional<Sym> sym = dot == std::string::npos
                                 ? std::nullopt
                                 : find_symbol(name.substr(0, dot), name.substr(dot + 1));
    if (!sym) throw ExecError(name + " cannot be executed: it is no symbol of the op registry");
    if (!is_prim(*sym))
      throw ExecError(name + " cannot be executed: only prims run directly (ltorch symbols "
                             "run as their subsymbols)");
    const OpDef &def = Registry::get().op(*sym);
    std::size_t given = v.items.size() - 1, required = 0;
    for (const SchemaParam &p : def.params)
      required += !p.default_value;
    if (given < required || given > def.params.size())
      throw ExecError(name + " takes " +
                      (required == def.params.size() ? std::to_string(required)
                                                     : std::to_string(required) + " to " +
                                                           std::to_string(def.params.size())) +
                      " arguments, got " + std::to_string(given));
    op.kind = Operand::Kind::Call;
    op.sym = *sym;
    op.text = name;
    std::vector<Operand> args;
    // Positionals, then keyword values: the printer writes them in the schema's order.
    for (std::size_t i = 1; i < v.items.size(); ++i)
      args.push_back(operand(v.items[i]));
    set_items(op, std::move(args));
    return op;
  }

  Operand operand(const Value &v) {
    Operand op;
    switch (v.kind) {
    case ValueKind::Name:
      if (!slots_.count(v.text) && (v.text == "int" || v.text == "float" || v.text == "bool")) {
        RtValue builtin;
        builtin.kind = RtValue::Kind::Builtin;
        builtin.text = v.text;
        op.constant = constant(std::move(builtin));
        return op;
      }
      op.kind = Operand::Kind::Slot;
      op.slot = slot(v.text);
      op.text = v.text;
      return op;
    case ValueKind::Tuple:
    case ValueKind::List:
    case ValueKind::Dict:
    case ValueKind::Slice:
      return collection_operand(v);
    case ValueKind::Attribute:
      if (std::optional<std::string> path = state_path(v)) {
        op.kind = Operand::Kind::StateTensor;
        op.text = *path;
        return op;
      }
      op.kind = Operand::Kind::Attribute;
      set_items(op, {operand(v.items[0])});
      op.text = v.text;
      return op;
    case ValueKind::Subscript:
      // globals()['__function_obj']: the traced module.
      if (v.items[0].kind == ValueKind::Call && v.items[0].callee().kind == ValueKind::Name &&
          v.items[0].callee().text == "globals" && v.items[1].kind == ValueKind::String &&
          v.items[1].text == "__function_obj") {
        op.kind = Operand::Kind::Module;
        return op;
      }
      op.kind = Operand::Kind::Subscript;
      set_items(op, {operand(v.items[0]), operand(v.items[1])});
      return op;
    case ValueKind::Call:
      return call_operand(v);
    case ValueKind::Complex:
      throw ExecError("complex numbers are not supported");
    default:
      op.constant = constant(literal(v));
      return op;
    }
  }

  const RegionRunner *regions_;
  bool check_annotations_ = true;
  CompiledTrace out_;
  std::unordered_map<std::string, int> slots_;
  std::unordered_set<int> module_slots_;
};

class Executor {
public:
  Executor(const ExecOptions &options, const RtValue &module) : options_(options) {
    if (module.kind == RtValue::Kind::Module)
      for (std::size_t i = 0; i + 1 < module.items.size(); i += 2)
        state_.emplace(module.items[i].text, &module.items[i + 1]);
    has_module_ = module.kind == RtValue::Kind::Module;
  }

  RtValue run(const CompiledTrace &trace, std::vector<RtValue> args) {
    constants_ = trace.constants.data();
    operands_ = trace.operands.data();
    slots_.assign(trace.slot_names.size(), RtValue{});
    defined_.assign(trace.slot_names.size(), 0);
    std::size_t next = 0;
    for (const auto &[kind, slot] : trace.parameters) {
      if (kind == ParamKind::VarArgs) {
        RtValue rest = RtValue::of_tuple({});
        while (next < args.size())
          rest.items.push_back(std::move(args[next++]));
        set(slot, std::move(rest));
      } else if (kind == ParamKind::VarKeywords) {
        RtValue d;
        d.kind = RtValue::Kind::Dict;
        set(slot, std::move(d));
      } else {
        if (next >= args.size())
          throw ExecError(trace.name + "() is missing the argument " +
                          trace.slot_names[static_cast<std::size_t>(slot)]);
        set(slot, std::move(args[next++]));
      }
    }
    if (next != args.size())
      throw ExecError(trace.name + "() got " + std::to_string(args.size()) + " arguments");
    for (std::size_t done = 0; done < trace.steps.size(); ++done) {
      const Step &step = trace.steps[done];
      if (options_.on_step && done) options_.on_step(done, trace.steps.size());
      try {
        if (step.is_return) return step.statement->has_value ? eval(step.value) : RtValue{};
        if (step.is_delete) {
          for (uint32_t k = step.deleted.begin; k < step.deleted.end; ++k)
            defined_[static_cast<std::size_t>(trace.deleted_slots[k])] = 0;
          continue;
        }
        if (step.is_annotation) {
          verify(trace, step, slots_[static_cast<std::size_t>(step.value.slot)]);
          free_last_uses(trace, step);
          continue;
        }
        RtValue value = eval(step.value);
        if (step.check >= 0) verify(trace, step, value);
        free_last_uses(trace, step);
        if (step.target) assign(*step.target, std::move(value));
      } catch (const ExecError &e) {
        throw ExecError(where(trace.name, *step.statement) + ": " + e.what());
      } catch (const c10::Error &e) {
        throw ExecError(where(trace.name, *step.statement) +
                        ": libtorch: " + e.what_without_backtrace());
      }
    }
    return RtValue{};
  }

private:
  void free_last_uses(const CompiledTrace &trace, const Step &step) {
    for (uint32_t k = step.last_uses.begin; k < step.last_uses.end; ++k)
      slots_[static_cast<std::size_t>(trace.freed_slots[k])] = RtValue{};
  }

  // The value against what the step's annotation claims: a mismatch fails the run.
  void verify(const CompiledTrace &trace, const Step &step, const RtValue &value) {
    auto symbol = [&](int slot) -> const RtValue * {
      return defined_[static_cast<std::size_t>(slot)] ? &slots_[static_cast<std::size_t>(slot)]
                                                      : nullptr;
    };
    std::string why = annotation_mismatch(value, trace.checks[static_cast<std::size_t>(step.check)],
                                          symbol, options_);
    if (!why.empty()) throw ExecError(why);
  }

  void set(int slot, RtValue v) {
    slots_[static_cast<std::size_t>(slot)] = std::move(v);
    defined_[static_cast<std::size_t>(slot)] = 1;
  }

  void assign(const TargetSlots &t, RtValue v) {
    if (t.is_name) {
      if (t.slot >= 0) set(t.slot, std::move(v));
      return;
    }
    if (v.kind != RtValue::Kind::Tuple && v.kind != RtValue::Kind::List)
      throw ExecError("cannot unpack " + describe(v));
    if (v.items.size() != t.elements.size())
      throw ExecError("cannot unpack " + std::to_string(v.items.size()) + " values into " +
                      std::to_string(t.elements.size()) + " names");
    for (std::size_t i = 0; i < t.elements.size(); ++i)
      assign(t.elements[i], std::move(v.items[i]));
  }

  const Operand &item(const Operand &op, uint32_t i) const { return operands_[op.first_item + i]; }

  // A slot's value without copying it; anything else is evaluated into scratch.
  const RtValue &read(const Operand &op, RtValue &scratch) {
    if (op.kind == Operand::Kind::Slot) {
      if (!defined_[static_cast<std::size_t>(op.slot)])
        throw ExecError("name `" + op.text + "` is not defined");
      return slots_[static_cast<std::size_t>(op.slot)];
    }
    if (op.kind == Operand::Kind::Constant) return constants_[op.constant];
    scratch = eval(op);
    return scratch;
  }

  RtValue eval(const Operand &op) {
    switch (op.kind) {
    case Operand::Kind::Constant:
      return constants_[op.constant];
    case Operand::Kind::Slot:
      if (!defined_[static_cast<std::size_t>(op.slot)])
        throw ExecError("name `" + op.text + "` is not defined");
      return slots_[static_cast<std::size_t>(op.slot)];
    case Operand::Kind::Module: {
      if (!has_module_)
        throw ExecError("this program traces a module: run it with the module's state");
      RtValue m;
      m.kind = RtValue::Kind::Module;
      return m;
    }
    case Operand::Kind::StateTensor: {
      auto it = state_.find(op.text);
      if (it == state_.end()) throw ExecError("the module has no tensor `" + op.text + "`");
      return *it->second;
    }
    case Operand::Kind::Collection: {
      RtValue out;
      out.kind = op.collection;
      out.items.reserve(op.item_count);
      for (uint32_t i = 0; i < op.item_count; ++i)
        out.items.push_back(eval(item(op, i)));
      return out;
    }
    case Operand::Kind::Attribute: {
      RtValue base = eval(item(op, 0));
      if (base.kind == RtValue::Kind::Slice) {
        if (op.text == "start") return base.items[0];
        if (op.text == "stop") return base.items[1];
        if (op.text == "step") return base.items[2];
      }
      throw ExecError("attribute " + op.text + " of " + describe(base));
    }
    case Operand::Kind::Subscript: {
      RtValue base = eval(item(op, 0));
      RtValue index = eval(item(op, 1));
      if (base.kind == RtValue::Kind::Dict) {
        for (std::size_t i = 0; i + 1 < base.items.size(); i += 2)
          if (same_literal(base.items[i], index)) return base.items[i + 1];
        throw ExecError("key " + describe(index) + " is missing");
      }
      if ((base.kind == RtValue::Kind::Tuple || base.kind == RtValue::Kind::List) &&
          index.kind == RtValue::Kind::Int) {
        int64_t n = static_cast<int64_t>(base.items.size());
        int64_t i = index.integer < 0 ? index.integer + n : index.integer;
        if (i < 0 || i >= n)
          throw ExecError("index " + std::to_string(index.integer) + " out of range");
        return base.items[static_cast<std::size_t>(i)];
      }
      throw ExecError("cannot subscript " + describe(base));
    }
    case Operand::Kind::Call: {
      // Slots and constants are read in place; only computed operands are materialised.
      // More than any schema of the registry has (prims.convolution: 9).
      constexpr std::size_t kMaxArgs = 12;
      if (op.item_count > kMaxArgs)
        throw ExecError(op.text + " cannot take " + std::to_string(op.item_count) + " arguments");
      RtValue scratch[kMaxArgs];
      const RtValue *values[kMaxArgs];
      for (uint32_t i = 0; i < op.item_count; ++i)
        values[i] = &read(item(op, i), scratch[i]);
      return implement(op.sym, values, op.item_count, options_);
    }
    case Operand::Kind::Region: {
      std::vector<RtValue> scratch(op.item_count);
      std::vector<const RtValue *> values(op.item_count);
      for (uint32_t i = 0; i < op.item_count; ++i)
        values[i] = &read(item(op, i), scratch[i]);
      Result<std::vector<at::Tensor>> outputs = options_.regions->run(op.text, values);
      if (!outputs) throw ExecError(outputs.error().message);
      RtValue list;
      list.kind = RtValue::Kind::List;
      for (at::Tensor &t : outputs.value())
        list.items.push_back(RtValue::of_tensor(std::move(t)));
      return list;
    }
    }
    throw ExecError("cannot evaluate this value");
  }

  ExecOptions options_;
  std::unordered_map<std::string, const RtValue *> state_;
  bool has_module_ = false;
  const RtValue *constants_ = nullptr; // the running trace's
  const Operand *operands_ = nullptr;  // the running trace's
  std::vector<RtValue> slots_;
  std::vector<char> defined_;
};

} // namespace

struct CompiledProgram::Impl {
  TraceFile source; // the steps point into it
  std::vector<CompiledTrace> traces;
  ExecOptions options;
};

CompiledProgram::CompiledProgram(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledProgram::CompiledProgram(CompiledProgram &&) noexcept = default;
CompiledProgram &CompiledProgram::operator=(CompiledProgram &&) noexcept = default;
CompiledProgram::~CompiledProgram() = default;

Result<CompiledProgram> CompiledProgram::compile(TraceFile file, const ExecOptions &options) {
  if (file.traces.empty() || file.traces.size() > 2)
    return Error{"expected a computation, or a prologue and a computation; got " +
                     std::to_string(file.traces.size()) + " traces",
                 "", 0, 0};
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->source = std::move(file);
  try {
    for (const Trace &t : impl->source.traces)
      impl->traces.push_back(Compiler(options.regions).compile(t));
  } catch (const ExecError &e) {
    return Error{e.what(), "", 0, 0};
  }
  return CompiledProgram(std::move(impl));
}

Result<RtValue> CompiledProgram::run(std::vector<RtValue> inputs, const RtValue &module) const {
  // Traces run as Thunder's do, under @torch.no_grad(): inputs that require grad (the prologue
  // checks that they do) record no autograd graph here.
  at::NoGradGuard no_grad;
  try {
    Executor executor(impl_->options, module);
    if (impl_->traces.size() == 1) return executor.run(impl_->traces[0], std::move(inputs));
    RtValue unpacked = executor.run(impl_->traces[0], std::move(inputs));
    if (unpacked.kind != RtValue::Kind::Tuple || unpacked.items.empty() ||
        unpacked.items[0].kind != RtValue::Kind::Tuple)
      return Error{"the prologue must return ((computation inputs...), ...)", "", 0, 0};
    return executor.run(impl_->traces[1], std::move(unpacked.items[0].items));
  } catch (const ExecError &e) {
    return Error{e.what(), "", 0, 0};
  } catch (const c10::Error &e) {
    return Error{std::string("libtorch: ") + e.what_without_backtrace(), "", 0, 0};
  }
}

Result<RtValue> execute_trace(const Trace &trace, std::vector<RtValue> args,
                              const ExecOptions &options) {
  TraceFile single;
  single.traces.push_back(trace);
  Result<CompiledProgram> compiled = CompiledProgram::compile(std::move(single), options);
  if (!compiled) return compiled.error();
  return compiled->run(std::move(args));
}

Result<RtValue> execute_program(const TraceFile &file, const std::vector<RtValue> &inputs,
                                const ExecOptions &options, const RtValue &module) {
  if (file.traces.size() != 2)
    return Error{"expected a prologue and a computation, got " +
                     std::to_string(file.traces.size()) + " traces",
                 "", 0, 0};
  Result<CompiledProgram> compiled = CompiledProgram::compile(file, options);
  if (!compiled) return compiled.error();
  return compiled->run(inputs, module);
}

} // namespace tracelint::tracer
