#pragma once
// The interpreter's Python values. Numbers, None and booleans are held inline; everything else
// is a reference to a heap object, shared as Python shares objects: two names bound to one list,
// module or tensor see each other's changes (`z = x; z += y` changes x too).
#include "tracelint/tracer/dtypes.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tracelint::tracer {

struct Heap {
  virtual ~Heap() = default;
};

class Obj {
public:
  enum class Kind : uint8_t {
    None,
    Ellipsis,
    NotImplemented,
    Bool,
    Int,
    Float,
    Str,
    Tuple,
    List,
    Dict,
    Set,
    Slice,
    Tensor,
    DType,
    Device,
    Function,    // a def of the traced code (or of the tracer's own torch.nn)
    BoundMethod, // self + a function
    Builtin,     // a function the interpreter implements (len, torch.add, str.join, ...)
    Class,
    Instance,
    Module,
    Property,
    ClassMethod,
    StaticMethod,
    Super,
    Cell, // a variable's storage shared with a closure
    Generator,
    Unknown, // from a module the tracer does not model: an error wherever its value matters
  };

  Kind kind = Kind::None;
  bool boolean = false;
  int64_t integer = 0; // Int, Bool (0/1), DType (its enum value)
  double real = 0;     // Float
  // The heap object of the reference kinds; for an Int, Float or Bool that is a proxy, its
  // ProxyName.
  std::shared_ptr<Heap> ref;

  static Obj none() { return Obj{}; }
  static Obj ellipsis() { return of(Kind::Ellipsis); }
  static Obj not_implemented() { return of(Kind::NotImplemented); }
  static Obj boolean_of(bool b) {
    Obj o = of(Kind::Bool);
    o.boolean = b;
    o.integer = b;
    return o;
  }
  static Obj int_of(int64_t i) {
    Obj o = of(Kind::Int);
    o.integer = i;
    return o;
  }
  static Obj float_of(double d) {
    Obj o = of(Kind::Float);
    o.real = d;
    return o;
  }
  static Obj str(std::string s);
  static Obj tuple(std::vector<Obj> items);
  static Obj list(std::vector<Obj> items);
  static Obj set(std::vector<Obj> items);
  static Obj dict();
  static Obj slice(Obj start, Obj stop, Obj step);
  static Obj dtype_of(DType d) {
    Obj o = of(Kind::DType);
    o.integer = static_cast<int64_t>(d);
    return o;
  }
  static Obj device_of(std::string spec); // cpu, cuda:0
  static Obj heap(Kind k, std::shared_ptr<Heap> h) {
    Obj o = of(k);
    o.ref = std::move(h);
    return o;
  }
  // A number with a proxy name (the concrete value is what Python computes).
  Obj with_proxy(std::string name) const;

  bool is_number() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  bool is_sequence() const { return kind == Kind::Tuple || kind == Kind::List; }
  bool is_none() const { return kind == Kind::None; }
  double as_double() const { return kind == Kind::Float ? real : static_cast<double>(integer); }
  // A number's proxy name, or "" (constants, and anything that is not a number).
  const std::string &proxy() const;
  bool is_proxy() const { return is_number() && ref != nullptr; }
  DType dtype() const { return static_cast<DType>(integer); }

  // The heap object as its type (the caller knows the kind).
  template <class T> T &as() const { return static_cast<T &>(*ref); }

private:
  static Obj of(Kind k) {
    Obj o;
    o.kind = k;
    return o;
  }
};

struct ProxyName : Heap {
  std::string name;
  explicit ProxyName(std::string n) : name(std::move(n)) {}
};

struct StrObj : Heap {
  std::string value;
  explicit StrObj(std::string v) : value(std::move(v)) {}
};

// A tuple, list or set (a set keeps its first-seen order; only hashable constants go in it).
struct ClassObj;
struct SeqObj : Heap {
  std::vector<Obj> items;
  std::shared_ptr<ClassObj> named; // a tuple made by a collections.namedtuple class: that class
  explicit SeqObj(std::vector<Obj> v) : items(std::move(v)) {}
  // Frees nested collections without recursion (t = (t,) in a loop nests without bound).
  ~SeqObj() override;
};

// Insertion-ordered, as Python's dict. Keys are compared as Python compares constants (str,
// int, float, bool, None, dtype, tuples of these) or by identity (objects).
struct DictObj : Heap {
  ~DictObj() override;
  std::vector<Obj> keys;
  std::vector<Obj> values;
  // A dict of collections.OrderedDict or defaultdict (a missing key's value is
  // default_factory(), stored), which are dicts with a little more.
  enum class Flavor : uint8_t { Plain, Ordered, Default };
  Flavor flavor = Flavor::Plain;
  Obj default_factory;
  // The index of key, or -1.
  std::ptrdiff_t find(const Obj &key) const;
  const Obj *get(const Obj &key) const;
  const Obj *get(std::string_view key) const;
  void set(Obj key, Obj value);
  bool erase(const Obj &key);
};

struct SliceObj : Heap {
  Obj start, stop, step;
};

struct DeviceObj : Heap {
  std::string spec; // cpu, cuda:0
  explicit DeviceObj(std::string s) : spec(std::move(s)) {}
};

// Python's == on two objects of a kind that holds no other objects and no number: None,
// Ellipsis, NotImplemented, str, dtype, device (dict keys and the interpreter's == share it).
// None for objects of two kinds or of any other kind.
std::optional<bool> equal_atoms(const Obj &a, const Obj &b);

// A backend's tensor storage (an at::Tensor for the eager backend; none while tracing).
struct TensorData {
  virtual ~TensorData() = default;
};

struct TensorObj : Heap {
  // The proxy's name in the trace ("" for a tensor no trace has named yet: one made while a
  // module is constructed, until it becomes a computation input). An in-place operation
  // rebinds it to the proxy of the new value.
  std::string name;
  DType dtype = DType::float32;
  std::string device = "cpu";
  std::vector<Obj> shape; // Int Objs (proxies under symbolic values)
  bool requires_grad = false;
  bool is_parameter = false; // an nn.Parameter
  // The name it had when it entered the computation (an input): an in-place update of it is
  // copied back at the end, as eager PyTorch would leave the caller's tensor updated.
  std::string input_name;
  // A view shares its base's storage: an in-place update of either would change the other,
  // which the functional trace cannot express (refused with an error).
  std::shared_ptr<TensorObj> base;
  std::vector<std::weak_ptr<TensorObj>> views; // of this tensor, when it is a base
  std::shared_ptr<TensorData> data;            // the eager backend's value
};

struct Env;
struct FunctionDef;
struct ClassDef;
struct Module;

// A def (or lambda) with its defaults, evaluated when the def ran, and the scope it closes over.
struct FunctionObj : Heap {
  const FunctionDef *def = nullptr;
  std::shared_ptr<const Module> module; // keeps the syntax tree alive
  std::shared_ptr<Env> globals;
  std::shared_ptr<Env> closure;             // the enclosing function's scope, for a nested def
  std::vector<std::optional<Obj>> defaults; // one per parameter
  std::string qualname;                     // Block.forward
  // The ClassObj whose body defined it (super()); weak: the class holds the function.
  std::weak_ptr<Heap> owner_class;
};

struct ClassObj;

struct BoundMethodObj : Heap {
  Obj self;
  Obj function;
};

// A builtin function, or a method of a builtin type bound to its receiver (str.join, list.append,
// Tensor.view): `id` says which, `self` is the receiver or None.
struct BuiltinObj : Heap {
  uint16_t id = 0;
  uint32_t index = 0; // which torch function or method, for the torch API's builtins
  std::string name;   // as Python spells it, for messages (len, torch.add, Tensor.view)
  Obj self;
  bool bound = false;
};

struct ClassObj : Heap {
  std::string name;
  std::string qualname;
  std::vector<std::shared_ptr<ClassObj>> bases;
  std::vector<ClassObj *> mro; // this class first
  DictObj attributes;
  // A builtin type (int, str, tuple, torch.Tensor, Exception, ...): instances are the
  // interpreter's own values, or InstanceObjs for exceptions.
  uint16_t builtin = 0;
  bool is_dataclass = false;
  std::vector<std::string> fields; // a dataclass's, in order
  // The attribute lookup along the MRO.
  const Obj *lookup(std::string_view attribute) const;
  bool is_subclass_of(const ClassObj &other) const;
};

struct InstanceObj : Heap {
  std::shared_ptr<ClassObj> cls;
  std::shared_ptr<DictObj> dict = std::make_shared<DictObj>(); // shared: `__dict__` is this dict
};

// A Python module: the traced file, or one the tracer provides (torch, math, ...).
struct ModuleObj : Heap {
  std::string name;             // torch.nn.functional
  std::shared_ptr<Env> globals; // the traced file's namespace; none for a provided module
  uint16_t provided = 0;        // which provided module
};

struct PropertyObj : Heap {
  Obj getter, setter, deleter; // None where the property has none
};
struct MethodWrapperObj : Heap { // classmethod / staticmethod
  Obj function;
};
struct SuperObj : Heap {
  std::shared_ptr<ClassObj> start; // look after this class in self's MRO
  Obj self;
};
struct CellObj : Heap {
  Obj value;
  bool bound = false;
};
class Coroutine; // generators.hpp
// What calling a generator function gives: its body, suspended at its last yield.
struct GeneratorObj : Heap {
  ~GeneratorObj() override;
  std::string qualname;
  std::shared_ptr<const Module> module; // its function's module (keeps the syntax tree alive)
  std::unique_ptr<Coroutine> body;
  bool context_manager = false; // made by a @contextlib.contextmanager function
};
struct UnknownObj : Heap {
  std::string what; // `logging.getLogger(...)`, what the tracer does not model
  uint32_t line = 0, column = 0;
  // The module it comes from, which the tracer cannot read, and the line that imported it;
  // empty for an unknown that no import made.
  std::string module;
  uint32_t import_line = 0;
};

// A scope: a function's locals, a class body's namespace, the module's globals.
// Hashes std::string and std::string_view alike, so a map keyed by std::string is searched with
// a string_view without building a string.
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct Env {
  // The enclosing function's scope, for a nested def or a comprehension (closures read through
  // it); none for a function at module level.
  std::shared_ptr<Env> parent;
  // Most scopes hold a few names, looked up often: a flat vector; a large one (a module of
  // many constants) gets an index.
  std::vector<std::pair<std::string, Obj>> vars;
  Obj *find(std::string_view name);
  void set(std::string_view name, Obj value);
  bool erase(std::string_view name);
  // Empties the scope, its values released (see ~Interpreter).
  void clear();

private:
  std::unique_ptr<std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>>> index_;
};

// Python's repr-free description for error messages: "int", "tensor f32[2, 3]", "GPT".
std::string describe(const Obj &o);
// The type name Python's type(o).__name__ gives (int, str, Tensor, GPT).
std::string type_name(const Obj &o);

} // namespace tracelint::tracer
